/*
 * tipreads.h: the tip record shared by the tip reads (tipreads.c: receipts,
 * attestations, a handle's list; gratitude.c: the gratitude graphs), from
 * the indexed `tips` table (docs/PROTOCOL.md, Tip reads):
 *
 *   {tipId, contract, kind handle|agent, handle, agentId|null, tipper,
 *    recipient|null, status ESCROWED|PUSHED|CLAIMED|REFUNDED, private,
 *    amountUsdc|null, note|null, disclosed, mintAttestation, <brand>Burned, txHash,
 *    logIndex, blockNumber, blockTimestamp, settledTxHash|null,
 *    settledBlockTimestamp|null}
 *
 * A private tip's amount and note are null: the table never holds them;
 * once its tipper disclosed it they come from tip_disclosures, with
 * disclosed true (docs/PROTOCOL.md, Private tips).
 * Numbers from the chain are decimal strings, addresses EIP-55.
 */
#ifndef WAYMARK_TIPREADS_H
#define WAYMARK_TIPREADS_H

#include <json-c/json.h>
#include <mysql.h>

#define TIP_VERSION "0.1"

/* The columns tip_record reads, FROM tips t, in order. */
#define TIP_COLUMNS \
	"t.tip_id, t.kind, t.is_private, t.handle, t.agent_id, LOWER(HEX(t.tipper)), " \
	"LOWER(HEX(t.recipient)), t.usdc_amount, t.note, t.mint_attestation, t.boon_burned, " \
	"t.status, LOWER(HEX(t.tx_hash)), t.log_index, t.block_number, t.block_time, " \
	"LOWER(HEX(t.settled_tx_hash)), t.settled_block_time, LOWER(HEX(t.contract)), " \
	"(SELECT d.usdc_amount FROM tip_disclosures d WHERE d.chain_id = t.chain_id AND " \
	"d.tip_id = t.tip_id AND d.disclosed = 1), (SELECT d.note FROM tip_disclosures d WHERE " \
	"d.chain_id = t.chain_id AND d.tip_id = t.tip_id AND d.disclosed = 1)"
#define TIP_NCOLUMNS 21

/*
 * The record of a row selected with TIP_COLUMNS (the caller puts it);
 * NULL when a column does not parse (logged): the caller fails the request.
 */
json_object *tip_record(MYSQL_ROW row);

#endif
