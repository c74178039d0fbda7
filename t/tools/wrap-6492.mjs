// Wrap a signature for a contract wallet that is not deployed yet (EIP-6492), with viem's
// serializeErc6492Signature, as wallets that sign counterfactually do.
// Usage: node wrap-6492.mjs FACTORY FACTORY_CALLDATA SIGNATURE   (prints the wrapped hex)
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { serializeErc6492Signature } from 'viem';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const [address, data, signature] = argv;
  io.out(`${serializeErc6492Signature({ address, data, signature })}\n`);
}

cli(import.meta.url, main);
