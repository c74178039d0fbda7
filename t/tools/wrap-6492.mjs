// Wrap a signature for a contract wallet that is not deployed yet (EIP-6492), with viem's
// serializeErc6492Signature, as wallets that sign counterfactually do.
// Usage: node wrap-6492.mjs FACTORY FACTORY_CALLDATA SIGNATURE   (prints the wrapped hex)
import { serializeErc6492Signature } from 'viem';

const [address, data, signature] = process.argv.slice(2);
console.log(serializeErc6492Signature({ address, data, signature }));
