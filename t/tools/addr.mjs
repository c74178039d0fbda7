// The EIP-55 address of a private key (viem's privateKeyToAccount), for the
// stack tests: a tool they call instead of `node -e` over viem's CommonJS
// build, so that it goes through the suite's helper.
// Usage: node addr.mjs 0xKEY
// Prints the address. Exits 2 without a key, 1 when viem refuses the key.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { privateKeyToAccount } from 'viem/accounts';
import { cli, fail } from '../../tools/cli.mjs';

export async function main(argv, io) {
  if (argv.length !== 1) fail(2, 'usage: node addr.mjs 0xKEY');
  io.out(`${privateKeyToAccount(argv[0]).address}\n`);
}

cli(import.meta.url, main);
