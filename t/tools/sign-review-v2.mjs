// Build a V2 receipt_verified publication body {review, signature, evidence}
// with viem, independently of the C code that verifies it: the official
// x402 offer and receipt (offer-receipt extension, EIP-712 domains
// "x402 offer" / "x402 receipt", version "1", chainId 1, no
// verifyingContract) signed by the service key, and the X402ReceiptReview
// signed by the reviewer (domain "Boon X402 Review" v2).
// Usage: node sign-review-v2.mjs SPEC_JSON, where SPEC has
//   chainId, companion, routeId, url, serviceKey, reviewerKey, createdAt, text
// and optionally offerKey / receiptKey (default serviceKey), payer (default
// the reviewer's address), payTo (default the service address), network
// (default eip155:8453), offerUrl / receiptUrl (default url), issuedAt
// (default createdAt), validUntil (default 0), amount (default "10000"),
// asset (default Base USDC), transaction (default absent), receiptDigest
// (default the receipt's EIP-712 digest).
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { hashTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const s = JSON.parse(argv[0]);
  const service = privateKeyToAccount(s.serviceKey);
  const reviewer = privateKeyToAccount(s.reviewerKey);
  const offerSigner = privateKeyToAccount(s.offerKey ?? s.serviceKey);
  const receiptSigner = privateKeyToAccount(s.receiptKey ?? s.serviceKey);
  const network = s.network ?? 'eip155:8453';

  const offerTypes = {
    Offer: [
      { name: 'version', type: 'uint256' }, { name: 'resourceUrl', type: 'string' },
      { name: 'scheme', type: 'string' }, { name: 'network', type: 'string' },
      { name: 'asset', type: 'string' }, { name: 'payTo', type: 'string' },
      { name: 'amount', type: 'string' }, { name: 'validUntil', type: 'uint256' },
    ],
  };
  const receiptTypes = {
    Receipt: [
      { name: 'version', type: 'uint256' }, { name: 'network', type: 'string' },
      { name: 'resourceUrl', type: 'string' }, { name: 'payer', type: 'string' },
      { name: 'issuedAt', type: 'uint256' }, { name: 'transaction', type: 'string' },
    ],
  };
  const offerPayload = {
    version: 1, resourceUrl: s.offerUrl ?? s.url, scheme: 'exact', network,
    asset: s.asset ?? '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: s.payTo ?? service.address,
    amount: s.amount ?? '10000', validUntil: s.validUntil ?? 0,
  };
  const receiptPayload = {
    version: 1, network, resourceUrl: s.receiptUrl ?? s.url, payer: s.payer ?? reviewer.address,
    issuedAt: s.issuedAt ?? s.createdAt,
  };
  if (s.transaction !== undefined) receiptPayload.transaction = s.transaction;

  const offerDomain = { name: 'x402 offer', version: '1', chainId: 1 };
  const receiptDomain = { name: 'x402 receipt', version: '1', chainId: 1 };
  const offerMsg = { ...offerPayload, version: 1n, validUntil: BigInt(offerPayload.validUntil) };
  const receiptMsg = { ...receiptPayload, version: 1n, issuedAt: BigInt(receiptPayload.issuedAt),
    transaction: receiptPayload.transaction ?? '' };
  const offer = {
    format: 'eip712', acceptIndex: 0, payload: offerPayload,
    signature: await offerSigner.signTypedData({ domain: offerDomain, types: offerTypes, primaryType: 'Offer', message: offerMsg }),
  };
  const receipt = {
    format: 'eip712', payload: receiptPayload,
    signature: await receiptSigner.signTypedData({ domain: receiptDomain, types: receiptTypes, primaryType: 'Receipt', message: receiptMsg }),
  };
  const receiptDigest = s.receiptDigest ??
    hashTypedData({ domain: receiptDomain, types: receiptTypes, primaryType: 'Receipt', message: receiptMsg });

  const policyVersion = 'boon.x402-review-policy/v2';
  const review = { version: '2', policyVersion, routeId: s.routeId, receiptDigest, reviewText: s.text, createdAt: Number(s.createdAt) };
  const signature = await reviewer.signTypedData({
    domain: { name: 'Boon X402 Review', version: '2', chainId: Number(s.chainId), verifyingContract: s.companion },
    types: {
      X402ReceiptReview: [
        { name: 'policyVersion', type: 'string' }, { name: 'routeId', type: 'bytes32' },
        { name: 'receiptDigest', type: 'bytes32' }, { name: 'reviewText', type: 'string' },
        { name: 'createdAt', type: 'uint256' },
      ],
    },
    primaryType: 'X402ReceiptReview',
    message: { policyVersion, routeId: s.routeId, receiptDigest, reviewText: s.text, createdAt: BigInt(s.createdAt) },
  });
  io.out(JSON.stringify({ review, signature, evidence: { offer, receipt } }) + '\n');
}

cli(import.meta.url, main);
