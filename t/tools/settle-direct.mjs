// Settle an x402 exact (EIP-3009) payment straight on the chain, as a
// facilitator would just before it vanished: decode a PAYMENT-SIGNATURE
// header and submit USDC.transferWithAuthorization(..., bytes signature).
// Usage: node settle-direct.mjs --rpc URL --usdc ADDRESS --header FILE [--key 0xKEY]
//        node settle-direct.mjs --rpc URL --usdc ADDRESS --header FILE --cancel 0xPAYER_KEY
// With --cancel, the payer instead cancels the authorization
// (cancelAuthorization with its EIP-712 CancelAuthorization signature), so
// its nonce is used up without any transfer. Prints {transaction, status}.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import fs from 'node:fs';
import { createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const opt = {};
  for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!opt.rpc || !opt.usdc || !opt.header) fail(2, 'usage: node settle-direct.mjs --rpc URL --usdc ADDRESS --header FILE [--key 0xKEY]');
  const payload = JSON.parse(Buffer.from(fs.readFileSync(io.resolve(opt.header), 'utf8').trim(), 'base64').toString('utf8')).payload;
  const a = payload.authorization;
  const chainId = Number((await (await fetch(opt.rpc, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })).json()).result);
  const chain = defineChain({ id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [opt.rpc] } } });
  const account = privateKeyToAccount(opt.key ?? '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
  const w = createWalletClient({ account, chain, transport: http(opt.rpc) }).extend(publicActions);
  let hash;
  if (opt.cancel) {
    const payer = privateKeyToAccount(opt.cancel);
    const extra = JSON.parse(Buffer.from(fs.readFileSync(io.resolve(opt.header), 'utf8').trim(), 'base64').toString('utf8')).accepted.extra;
    const signature = await payer.signTypedData({
      domain: { name: extra.name, version: extra.version, chainId, verifyingContract: opt.usdc },
      types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] },
      primaryType: 'CancelAuthorization', message: { authorizer: a.from, nonce: a.nonce } });
    hash = await w.writeContract({ address: opt.usdc, functionName: 'cancelAuthorization',
      abi: [{ type: 'function', name: 'cancelAuthorization', stateMutability: 'nonpayable', outputs: [],
        inputs: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }, { name: 'signature', type: 'bytes' }] }],
      args: [a.from, a.nonce, signature] });
  } else hash = await w.writeContract({ address: opt.usdc, functionName: 'transferWithAuthorization',
    abi: [{ type: 'function', name: 'transferWithAuthorization', stateMutability: 'nonpayable', outputs: [],
      inputs: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
        { name: 'signature', type: 'bytes' }] }],
    args: [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, payload.signature] });
  const r = await w.waitForTransactionReceipt({ hash });
  io.out(JSON.stringify({ transaction: hash, status: r.status }) + '\n');
}

cli(import.meta.url, main);
