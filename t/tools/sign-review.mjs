// Sign a V1 boon_backed review (EIP-712 X402Review) with viem, as the
// deployed clients do, and print the publication body {review, signature}.
// Usage: node sign-review.mjs KEY CHAIN_ID COMPANION ROUTE_ID TX_HASH LOG_INDEX CREATED_AT TEXT
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { privateKeyToAccount } from 'viem/accounts';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const [key, chainId, companion, routeId, txHash, logIndex, createdAt, text] = argv;
  const account = privateKeyToAccount(key);
  const review = {
    version: '1', routeId, recognitionTxHash: txHash, recognitionLogIndex: Number(logIndex),
    reviewText: text, createdAt: Number(createdAt),
  };
  const signature = await account.signTypedData({
    domain: { name: 'Boon X402 Review', version: '1', chainId: Number(chainId), verifyingContract: companion },
    types: {
      X402Review: [
        { name: 'routeId', type: 'bytes32' }, { name: 'recognitionTxHash', type: 'bytes32' },
        { name: 'recognitionLogIndex', type: 'uint256' }, { name: 'reviewText', type: 'string' },
        { name: 'createdAt', type: 'uint256' },
      ],
    },
    primaryType: 'X402Review',
    message: { routeId, recognitionTxHash: txHash, recognitionLogIndex: BigInt(logIndex), reviewText: text,
      createdAt: BigInt(createdAt) },
  });
  io.out(JSON.stringify({ review, signature }) + '\n');
}

cli(import.meta.url, main);
