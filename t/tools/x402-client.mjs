// The real x402 paying client, shared by every tool that pays: @x402/fetch's
// wrapFetchWithPayment around @x402/core's x402Client with @x402/evm's
// ExactEvmScheme, for one payer key.
//
//   payingFetch(key, [base])   a fetch that answers a 402 by signing a payment
//                              for `key` and retrying; `base` (default fetch)
//                              sends every request, so a caller can watch
//                              the paid retry (see recordingFetch)
//   recordingFetch(onSig)      a base fetch that calls onSig(header) with the
//                              PAYMENT-SIGNATURE a request carries, if any
//   paymentResponse(res)       the decoded PAYMENT-RESPONSE header of res, or null
//   signPayment(key, url, [init])
//                              the PAYMENT-SIGNATURE header (its value) the client
//                              would send for url, made from url's 402 answer,
//                              without sending it: a test can then present the
//                              one authorization as often as it likes
//   paymentNonce(header)       the authorization nonce (0x + 64 hex, lower case)
//                              and payer inside a PAYMENT-SIGNATURE header:
//                              {payer, nonce}, or null when it has none
import { privateKeyToAccount } from 'viem/accounts';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';

export function payingFetch(key, base = fetch) {
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(key)));
  return wrapFetchWithPayment(base, client);
}

export async function signPayment(key, url, init = { method: 'GET' }) {
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(key)));
  const http = new x402HTTPClient(client);
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== 402) throw new Error(`${url} answered ${res.status}, not 402`);
  let body;
  try { body = JSON.parse(text); } catch { /* the header carries it */ }
  const required = http.getPaymentRequiredResponse((n) => res.headers.get(n), body);
  const headers = http.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
  const sig = headers['PAYMENT-SIGNATURE'];
  if (!sig) throw new Error('the client made no PAYMENT-SIGNATURE header');
  return sig;
}

export function recordingFetch(onSig) {
  return async (input, init) => {
    const req = new Request(input, init);
    const sig = req.headers.get('payment-signature');
    if (sig) onSig(sig);
    return fetch(req);
  };
}

export function paymentResponse(res) {
  const pr = res.headers.get('payment-response');
  return pr ? JSON.parse(Buffer.from(pr, 'base64').toString('utf8')) : null;
}

export function paymentNonce(header) {
  try {
    const a = JSON.parse(Buffer.from(header, 'base64').toString('utf8'))?.payload?.authorization;
    return a?.nonce ? { payer: String(a.from).toLowerCase(), nonce: String(a.nonce).toLowerCase() } : null;
  } catch {
    return null;
  }
}
