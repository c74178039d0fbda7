// The reference Sign-In-With-X client (@x402/extensions' sign-in-with-x),
// shared by every tool that signs in as a wallet would.
//
//   siwxSigner(key, {wallet, erc6492})
//       the signer for key's account; with wallet, for a contract wallet
//       (ERC-1271) whose owner is key: the owner signs the EIP-191 hash of
//       the sign-in text and the proof names the wallet; erc6492
//       ("FACTORY:CALLDATA") wraps that signature for a wallet not deployed
//       yet (EIP-6492)
//   siwxProof(signer, challengeB64, url, {set, drop})
//       the SIGN-IN-WITH-X header value answering the PAYMENT-REQUIRED
//       challenge challengeB64 that url answered. Without set/drop the
//       client hook does everything (it also checks that the challenge is
//       bound to url's origin); set (["field=value", ...]) and drop
//       (["field", ...]) alter the challenge info first (field chainId picks
//       the chain). Throws when the client will not answer.
//   siwxFetch(signer, url, init, [alter])
//       the whole exchange: the request, its 402 challenge, the proof, the
//       retry. Resolves to {first: {status, error}, status, body, header}
//       (header: the proof sent, null when none was asked for).
import { hashMessage, serializeErc6492Signature } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  createSIWxClientHook, createSIWxMessage, encodeSIWxHeader, SIGN_IN_WITH_X,
} from '@x402/extensions/sign-in-with-x';

export function siwxSigner(key, { wallet, erc6492 } = {}) {
  const owner = privateKeyToAccount(key);
  if (!wallet) return owner;
  return {
    address: wallet,
    async signMessage({ message }) {
      const sig = await owner.sign({ hash: hashMessage(message) });
      if (!erc6492) return sig;
      const [address, data] = erc6492.split(':');
      return serializeErc6492Signature({ address, data, signature: sig });
    },
  };
}

export async function siwxProof(signer, challengeB64, url, { set = [], drop = [] } = {}) {
  const paymentRequired = decodePaymentRequiredHeader(challengeB64);
  if (set.length === 0 && drop.length === 0) {
    const r = await createSIWxClientHook(signer)({ paymentRequired, requestUrl: url });
    if (!r?.headers?.[SIGN_IN_WITH_X]) throw new Error('the SIWX client did not answer this challenge');
    return r.headers[SIGN_IN_WITH_X];
  }
  const ext = paymentRequired.extensions?.[SIGN_IN_WITH_X];
  if (!ext) throw new Error('no sign-in-with-x extension in the challenge');
  const info = { ...ext.info, chainId: ext.supportedChains[0].chainId, type: ext.supportedChains[0].type };
  for (const s of set) { const j = s.indexOf('='); info[s.slice(0, j)] = s.slice(j + 1); }
  for (const d of drop) delete info[d];
  const message = createSIWxMessage(info, signer.address);
  const signature = await signer.signMessage({ message });
  return encodeSIWxHeader({ ...info, address: signer.address, signature });
}

export async function siwxFetch(signer, url, init, alter) {
  const first = await fetch(url, init);
  const firstBody = await first.json().catch(() => null);
  const out = { first: { status: first.status, error: firstBody?.error ?? null } };
  const pr = first.headers.get('PAYMENT-REQUIRED');
  if (first.status !== 402 || !pr) return { ...out, status: first.status, body: firstBody, header: null };
  const header = await siwxProof(signer, pr, first.url || url, alter);
  const second = await fetch(url, { ...init, headers: { ...init.headers, [SIGN_IN_WITH_X]: header } });
  return { ...out, status: second.status, body: await second.json().catch(() => null), header };
}
