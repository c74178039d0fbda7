// Sign a V3 self_reported review (EIP-712 X402SelfReportedReview) with viem,
// as the deployed clients do, and print the publication body {review, signature}.
// Usage: node sign-review-v3.mjs KEY CHAIN_ID COMPANION ROUTE_ID CREATED_AT TEXT [REVIEWER]
// REVIEWER (default: KEY's address) is the address written into the review,
// so a test can sign for someone else.
// A tool of tools/cli.mjs: the suite's helper runs it in process.
import { privateKeyToAccount } from 'viem/accounts';
import { cli } from '../../tools/cli.mjs';

export async function main(argv, io) {
  const [key, chainId, companion, routeId, createdAt, text, who] = argv;
  const account = privateKeyToAccount(key);
  const reviewer = who || account.address;
  const policyVersion = 'boon.x402-review-policy/v3';
  const review = { version: '3', policyVersion, routeId, reviewer, reviewText: text, createdAt: Number(createdAt) };
  const signature = await account.signTypedData({
    domain: { name: 'Boon X402 Review', version: '3', chainId: Number(chainId), verifyingContract: companion },
    types: {
      X402SelfReportedReview: [
        { name: 'policyVersion', type: 'string' }, { name: 'routeId', type: 'bytes32' },
        { name: 'reviewer', type: 'address' }, { name: 'reviewText', type: 'string' },
        { name: 'createdAt', type: 'uint256' },
      ],
    },
    primaryType: 'X402SelfReportedReview',
    message: { policyVersion, routeId, reviewer, reviewText: text, createdAt: BigInt(createdAt) },
  });
  io.out(JSON.stringify({ review, signature }) + '\n');
}

cli(import.meta.url, main);
