// The MPP vector of t/unit/mpp.c, made by the reference SDK: a challenge
// issued under a known secret (mppx's Challenge.from computes its HMAC id)
// for GET https://api.example.com/api/v1/x402/routes/0xab..ab, answered by
// mppx's EVM charge client with anvil account #0's key. Prints the values
// to paste into t/unit/mpp.c. Usage: node t/mpp/gen-vectors.mjs
import { privateKeyToAccount } from 'viem/accounts';
import { Challenge } from 'mppx';
import { Mppx, evm } from 'mppx/client';

const secret = 'waymark-unit-test-mpp-secret-0123456789';
const url = 'https://api.example.com/api/v1/x402/routes/0x' + 'ab'.repeat(32);
const opaque = Buffer.from(JSON.stringify({ method: 'GET', nonce: '00112233445566778899aabbccddeeff', url }))
  .toString('base64url');
const challenge = Challenge.from({
  secretKey: secret,
  realm: 'api.example.com',
  method: 'evm',
  intent: 'charge',
  request: {
    amount: '10000',
    currency: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    methodDetails: { chainId: 8453, credentialTypes: ['authorization'], decimals: 6 },
    recipient: '0x5555555555555555555555555555555555555555',
  },
  expires: '2030-01-01T00:00:00Z',
  opaque,
});
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const mppx = Mppx.create({ polyfill: false, methods: [evm({ account, authorization: { name: 'USD Coin', version: '2' } })] });
const res = new Response(null, { status: 402, headers: { 'WWW-Authenticate': Challenge.serialize(challenge) } });
const authorization = await mppx.createCredential(res);
console.log(JSON.stringify({ secret, url, header: Challenge.serialize(challenge), authorization }, null, 1));
