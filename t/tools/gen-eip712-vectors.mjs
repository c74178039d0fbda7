#!/usr/bin/env node
// Independent EIP-712 vectors for the service's typed data, computed with
// viem (pinned in package.json / package-lock.json), so that lib/typed.c
// and lib/eip712.c are checked against a widely used implementation.
//
//   cd t/tools && npm ci && node gen-eip712-vectors.mjs
//
// writes ../vectors/eip712-boon.json. The output is deterministic (RFC 6979
// signatures, no timestamps): rerunning it must give the same file.
// Messages are recorded in the wire form the service receives (uint256 as
// decimal strings, small integers as JSON numbers); viem gets BigInts.
//
// Two sections:
//  - "vectors": one sample message of each of the Boon typed-data kinds,
//    signed here with the public Anvil/Hardhat account 0 key (never fund it);
//  - "published": the vectors quoted in shared/reference (EIP-712 Mail,
//    the Batch arrays example, the service-shaped Disclosure and
//    PrivateTipUnlock examples, x402 offer/receipt, EIP-3009
//    TransferWithAuthorization). Each published value is recomputed with
//    viem and must match, and each signature must recover to its signer,
//    or this script fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getTypesForEIP712Domain,
  hashDomain,
  hashStruct,
  hashTypedData,
  keccak256,
  recoverTypedDataAddress,
  stringToHex,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
// viem's own encodeType; its package exports do not list it, so by file path.
import { encodeType as viemEncodeType } from './node_modules/viem/_esm/utils/signature/hashTypedData.js';

const here = dirname(fileURLToPath(import.meta.url));
const viemVersion = JSON.parse(readFileSync(join(here, 'node_modules/viem/package.json'), 'utf8')).version;

// The brand word (lib/brand.h BRAND_CAPITAL / BRAND_LOWER).
const BRAND = 'Boon';
const brand = 'boon';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const account = privateKeyToAccount(KEY);
const COW_KEY = keccak256(toHex('cow'));

// Deployed addresses on Base (docs/PROTOCOL.md, Routed recognition).
const COMPANION = '0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66';
const BOON_V3 = '0x22aC2E603D4B1CaAb3A8433f1691BA6158A896AF';
const BOON_V1 = '0xfb6662AdaF0611a94322634d5B86203Cfb59d5e8';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

const ROUTE_ID = '0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73';
const RECEIPT_DIGEST = '0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b';
const f = (name, type) => ({ name, type });
const reviewDomain = (version) => ({
  name: `${BRAND} X402 Review`, version, chainId: 8453, verifyingContract: COMPANION,
});

// Wire values -> viem values: integers become BigInt, through structs and arrays.
function toViem(types, type, v) {
  const m = /^(.*)\[[0-9]*\]$/.exec(type);
  if (m)
    return v.map((x) => toViem(types, m[1], x));
  if (types[type]) {
    const out = {};
    for (const { name, type: t } of types[type])
      out[name] = toViem(types, t, v[name]);
    return out;
  }
  return /^u?int[0-9]*$/.test(type) ? BigInt(v) : v;
}

// Every hash of one typed-data object, from viem. viem derives EIP712Domain
// from the domain's keys, so our explicit EIP712Domain is checked too.
function hashes({ types, primaryType, domain, message }) {
  const { EIP712Domain, ...structs } = types;
  const derived = getTypesForEIP712Domain({ domain });
  if (JSON.stringify(derived) !== JSON.stringify(EIP712Domain))
    throw new Error(`${primaryType}: EIP712Domain ${JSON.stringify(EIP712Domain)} is not viem's`);
  const data = toViem(types, primaryType, message);
  const encodeType = viemEncodeType({ primaryType, types: structs });
  return {
    data,
    structs,
    encodeType,
    typeHash: keccak256(toHex(encodeType)),
    domainSeparator: hashDomain({ domain, types: { EIP712Domain: derived } }),
    hashStruct: hashStruct({ data, primaryType, types: structs }),
    digest: hashTypedData({ domain, types: structs, primaryType, message: data }),
  };
}

// ---- the Boon kinds: one sample message each, signed here ----
const D4 = [f('name', 'string'), f('version', 'string'), f('chainId', 'uint256'), f('verifyingContract', 'address')];
const D3 = [f('name', 'string'), f('version', 'string'), f('chainId', 'uint256')];

const cases = [
  {
    kind: 'X402Review',
    domain: reviewDomain('1'),
    fields: [f('routeId', 'bytes32'), f('recognitionTxHash', 'bytes32'), f('recognitionLogIndex', 'uint256'),
      f('reviewText', 'string'), f('createdAt', 'uint256')],
    message: {
      routeId: ROUTE_ID,
      recognitionTxHash: '0x' + 'ab'.repeat(32),
      recognitionLogIndex: '7',
      reviewText: 'Fast, accurate weather data; paid once and it just worked.',
      createdAt: '1767225600',
    },
  },
  {
    kind: 'X402ReceiptReview',
    domain: reviewDomain('2'),
    fields: [f('policyVersion', 'string'), f('routeId', 'bytes32'), f('receiptDigest', 'bytes32'),
      f('reviewText', 'string'), f('createdAt', 'uint256')],
    message: {
      policyVersion: `${brand}.x402-review-policy/v2`,
      routeId: ROUTE_ID,
      receiptDigest: RECEIPT_DIGEST,
      reviewText: 'Receipt-backed: the premium endpoint answered within a second.',
      createdAt: '1767225600',
    },
  },
  {
    kind: 'X402SelfReportedReview',
    domain: reviewDomain('3'),
    fields: [f('policyVersion', 'string'), f('routeId', 'bytes32'), f('reviewer', 'address'),
      f('reviewText', 'string'), f('createdAt', 'uint256')],
    message: {
      policyVersion: `${brand}.x402-review-policy/v3`,
      routeId: ROUTE_ID,
      reviewer: account.address,
      reviewText: 'Très bien: café, 東京 and emoji 🚀 all hash as UTF-8.',
      createdAt: '1767225600',
    },
  },
  {
    kind: 'RouteNoteOffer',
    domain: { name: `${BRAND} x402 Route Note Offer`, version: '1', chainId: 8453 },
    fields: [f('noteEndpoint', 'string'), f('method', 'string'), f('network', 'string'), f('asset', 'address'),
      f('payTo', 'address'), f('amountAtomic', 'uint256'), f('responseDigest', 'bytes32'),
      f('responseBytes', 'uint32'), f('expiresAt', 'uint64')],
    message: {
      noteEndpoint: 'https://api.example.com/notes/weather',
      method: 'GET',
      network: 'eip155:8453',
      asset: USDC_BASE,
      payTo: account.address,
      amountAtomic: '10000',
      responseDigest: keccak256(stringToHex('{"version":"1"}')),
      responseBytes: 15,
      expiresAt: 1767312000,
    },
  },
  {
    kind: 'Link',
    domain: { name: BRAND, version: '3', chainId: 8453, verifyingContract: BOON_V3 },
    fields: [f('handleHash', 'bytes32'), f('recipient', 'address'), f('nonce', 'uint256')],
    message: {
      handleHash: keccak256(stringToHex('github:alice')),
      recipient: account.address,
      nonce: '0',
    },
  },
  {
    kind: 'Disclosure',
    domain: { name: `${BRAND} Disclosure`, version: '1', chainId: 8453, verifyingContract: BOON_V1 },
    fields: [f('txHash', 'bytes32'), f('action', 'string')],
    message: { txHash: '0x' + 'ab'.repeat(32), action: 'publish' },
  },
  {
    kind: 'PrivateTipUnlock',
    domain: { name: `${BRAND} Private Tip Unlock`, version: '1', chainId: 8453, verifyingContract: BOON_V3 },
    fields: [f('tipId', 'uint256'), f('nonce', 'bytes32'), f('deadline', 'uint256')],
    message: { tipId: '42', nonce: '0x' + '01'.repeat(32), deadline: '1767225600' },
  },
];

const vectors = [];
for (const c of cases) {
  const types = { EIP712Domain: c.domain.verifyingContract ? D4 : D3, [c.kind]: c.fields };
  const h = hashes({ types, primaryType: c.kind, domain: c.domain, message: c.message });
  const args = { domain: c.domain, types: h.structs, primaryType: c.kind, message: h.data };
  const signature = await account.signTypedData(args);
  const recovered = await recoverTypedDataAddress({ ...args, signature });
  if (recovered !== account.address)
    throw new Error(`${c.kind}: signature does not recover (${recovered})`);
  vectors.push({
    kind: c.kind,
    domain: c.domain,
    message: c.message,
    encodeType: h.encodeType,
    typeHash: h.typeHash,
    domainSeparator: h.domainSeparator,
    hashStruct: h.hashStruct,
    digest: h.digest,
    signature,
    signer: account.address,
  });
}

// ---- published vectors (shared/reference), re-derived with viem ----
const EXAMPLE_DOMAIN = {
  name: 'Example', version: '1', chainId: 8453, verifyingContract: '0x1111111111111111111111111111111111111111',
};
const TWA = [f('from', 'address'), f('to', 'address'), f('value', 'uint256'), f('validAfter', 'uint256'),
  f('validBefore', 'uint256'), f('nonce', 'bytes32')];
const twaMessage = (from) => ({
  from, to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C', value: '10000', validAfter: '1740672089',
  validBefore: '1740672154', nonce: '0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480',
});
const BASE_USDC_DOMAIN = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC_BASE };
const SEPOLIA_USDC_DOMAIN = {
  name: 'USDC', version: '2', chainId: 84532, verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};

const published = [
  {
    name: 'eip712-mail',
    source: 'EIP-712 "Ether Mail" example; reference/protocols.md §5.2, x402.md §8.2',
    typedData: {
      types: {
        EIP712Domain: D4,
        Person: [f('name', 'string'), f('wallet', 'address')],
        Mail: [f('from', 'Person'), f('to', 'Person'), f('contents', 'string')],
      },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail', version: '1', chainId: 1,
        verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      message: {
        from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
        to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
        contents: 'Hello, Bob!',
      },
    },
    expect: {
      encodeType: 'Mail(Person from,Person to,string contents)Person(string name,address wallet)',
      typeHash: '0xa0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2',
      domainSeparator: '0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f',
      hashStruct: '0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e',
      digest: '0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2',
    },
    signature: '0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d'
      + '07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c',
    signer: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
  },
  {
    name: 'batch-arrays',
    source: 'reference/protocols.md §5.2 (arrays, bytes and nested struct arrays); signed here with the cow key',
    typedData: {
      types: {
        EIP712Domain: [f('name', 'string'), f('chainId', 'uint256')],
        Batch: [f('owner', 'address'), f('ids', 'uint256[]'), f('items', 'Item[]'), f('blob', 'bytes'),
          f('flag', 'bool')],
        Item: [f('id', 'uint256'), f('tag', 'string')],
      },
      primaryType: 'Batch',
      domain: { name: 'Example', chainId: 8453 },
      message: {
        owner: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
        ids: ['1', '2', '3'],
        items: [{ id: '1', tag: 'a' }, { id: '2', tag: 'b' }],
        blob: '0xdeadbeef',
        flag: true,
      },
    },
    expect: {
      encodeType: 'Batch(address owner,uint256[] ids,Item[] items,bytes blob,bool flag)Item(uint256 id,string tag)',
      domainSeparator: '0xed418f4c6c481aae93fb5c4c87db728b0eaef610ebe25d4bb791b690b2138d54',
      hashStruct: '0xf92204203e64433b30db970d2469a436751b1a2ffdc979dbcc3c19ec237132d7',
      digest: '0x76b4364db9adaf09a06ecd61edfc7914a01a92d14c4e485860409f55c7dc6164',
    },
    sign: COW_KEY,
  },
  {
    name: 'disclosure-example',
    source: 'reference/protocols.md §5.2 (service-shaped, example domain, cow key)',
    kind: 'Disclosure',
    typedData: {
      types: { EIP712Domain: D4, Disclosure: [f('txHash', 'bytes32'), f('action', 'string')] },
      primaryType: 'Disclosure',
      domain: EXAMPLE_DOMAIN,
      message: { txHash: '0x' + 'ab'.repeat(32), action: 'publish' },
    },
    expect: {
      typeHash: '0x0c6d4052e11879c5ca8b9e8afc990f17fca6c2c29372fa071cd902a5062c476a',
      domainSeparator: '0x81f205214a920d795f8c62aa61c7c5b94e19f4e0593740a275351b745314a0cd',
      hashStruct: '0x7c215ac69d0d2d4fe3ec8a05ec9ecc8ea030b4e44e614dc48a4fcefc37fcf699',
      digest: '0x9fe4b34520dce4275eb4961ca60c60e25bd1ef919a46d38b76172810bace3b92',
      signaturePrefix: '0xff98076d',
      signatureSuffix: '7f7e330f1b',
    },
    sign: COW_KEY,
  },
  {
    name: 'private-tip-unlock-example',
    source: 'reference/protocols.md §5.2 (service-shaped, example domain, cow key)',
    kind: 'PrivateTipUnlock',
    typedData: {
      types: {
        EIP712Domain: D4,
        PrivateTipUnlock: [f('tipId', 'uint256'), f('nonce', 'bytes32'), f('deadline', 'uint256')],
      },
      primaryType: 'PrivateTipUnlock',
      domain: EXAMPLE_DOMAIN,
      message: { tipId: '42', nonce: '0x' + '01'.repeat(32), deadline: '1767225600' },
    },
    expect: {
      typeHash: '0x95d3ac1bfd0b47061eced90786f0e788afd43bdf18df5b139f1a1c83da362723',
      hashStruct: '0x79cf3ffd3bc0a267cccb9d86181d079ddd77bc6ce4bd0ede57c1af1ef288afae',
      digest: '0xdfdd3ec6573cafd30f828558007d0a5717eb02c672d8b7dcb84693b80429e5c5',
      signaturePrefix: '0x2e093286',
      signatureSuffix: 'ede6ec71ff1c',
    },
    sign: COW_KEY,
  },
  {
    name: 'x402-offer',
    source: 'reference/x402.md §6.2, §8.4',
    kind: 'Offer',
    typedData: {
      types: {
        EIP712Domain: D3,
        Offer: [f('version', 'uint256'), f('resourceUrl', 'string'), f('scheme', 'string'), f('network', 'string'),
          f('asset', 'string'), f('payTo', 'string'), f('amount', 'string'), f('validUntil', 'uint256')],
      },
      primaryType: 'Offer',
      domain: { name: 'x402 offer', version: '1', chainId: 1 },
      message: {
        version: 1, resourceUrl: 'https://api.example.com/premium-data', scheme: 'exact', network: 'eip155:8453',
        asset: USDC_BASE, payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C', amount: '10000',
        validUntil: 1703123516,
      },
    },
    expect: {
      typeHash: '0x85143d3249b5e62ed5edd3d59a352d4e1181c775ff4f762f9c8a617f6bf1e97d',
      domainSeparator: '0x5dc92544087ab60aa57c539b9543f9282416b0dcf2c2ae0d4d0051052a9e61b6',
      digest: '0x080c2947f96376213d3de762c32b1f56ba5869acdeb87c7a44b7be5d33d397ea',
    },
    signature: '0x57073060e55da4e8a97e47dd390e7c2db8ac1fb7f53bbe0dc253a08267b3a909'
      + '7f595505f2c47421ede1cc84c1360eba670ccd4011933ace67e6482abea885971b',
    signer: account.address,
  },
  {
    name: 'x402-receipt',
    source: 'reference/x402.md §6.2, §8.4',
    kind: 'Receipt',
    typedData: {
      types: {
        EIP712Domain: D3,
        Receipt: [f('version', 'uint256'), f('network', 'string'), f('resourceUrl', 'string'), f('payer', 'string'),
          f('issuedAt', 'uint256'), f('transaction', 'string')],
      },
      primaryType: 'Receipt',
      domain: { name: 'x402 receipt', version: '1', chainId: 1 },
      message: {
        version: 1, network: 'eip155:8453', resourceUrl: 'https://api.example.com/premium-data',
        payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66', issuedAt: 1703123456, transaction: '',
      },
    },
    expect: {
      typeHash: '0x616944bc4bb51b3d5fcbba8c559f76d57a93ac1e0d6659f1abbe95f92300c06f',
      domainSeparator: '0xfd7f8c81cdd24b25c99ba22e191cee41d8809abbc12e8fdbd42fddfa5bb9e406',
      digest: '0x060dbcfb87035bac821d6baa07fdab2ec109e6f06deaa00e037c2c1f4fbe6f8b',
    },
    signature: '0x4f98ad0be21e9eb48ec1aeb7a65f25100f7db10a8e1870aa4021cbd6985013d0'
      + '1451045373c2f5f74ac168e90cee435f13284beaa500f570ab7584cdde05e1021c',
    signer: account.address,
  },
  {
    name: 'twa-base-mainnet',
    source: 'reference/x402.md §2.2, §8.3 (anvil0, USDC on Base)',
    kind: 'TransferWithAuthorization',
    typedData: {
      types: { EIP712Domain: D4, TransferWithAuthorization: TWA },
      primaryType: 'TransferWithAuthorization',
      domain: BASE_USDC_DOMAIN,
      message: twaMessage(account.address),
    },
    expect: {
      typeHash: '0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267',
      domainSeparator: '0x02fa7265e7c5d81118673727957699e4d68f74cd74b7db77da710fe8a2c7834f',
      digest: '0x7e9613714edd92ad20fa5b252ec168245031911a3438dd20225f083b6a688f8a',
    },
    signature: '0xa70a7d235fd4218a3ed6625525892efed6fd1ac6a193ba612bb9da921620bce7'
      + '4885a8f7f56d2dc2f46005b7d6a089ae3469455a911004b6c4a6ab600677f56c1c',
    signer: account.address,
  },
  {
    name: 'twa-base-sepolia',
    source: 'reference/x402.md §2.2, §8.3 (anvil0, USDC on Base Sepolia)',
    kind: 'TransferWithAuthorization',
    typedData: {
      types: { EIP712Domain: D4, TransferWithAuthorization: TWA },
      primaryType: 'TransferWithAuthorization',
      domain: SEPOLIA_USDC_DOMAIN,
      message: twaMessage(account.address),
    },
    expect: {
      typeHash: '0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267',
      domainSeparator: '0x71f17a3b2ff373b803d70a5a07c046c1a2bc8e89c09ef722fcb047abe94c9818',
      digest: '0x50708d3bf7216e1aeabe7bf22081b9f36c7c287530f92510318f13a03d89dc86',
    },
    signature: '0xdc53a4a579de989368a0fae2ef2172ff2f474b4297013f865d171239f17ef4c3'
      + '157b4b4030f1bebc53d55ace15c2377dff501a60e1e56c291f1000d6e78f082f1b',
    signer: account.address,
  },
  {
    name: 'twa-x402-spec-example',
    source: 'reference/x402.md §8.3 (the x402 spec example payload; its digest computed here)',
    kind: 'TransferWithAuthorization',
    typedData: {
      types: { EIP712Domain: D4, TransferWithAuthorization: TWA },
      primaryType: 'TransferWithAuthorization',
      domain: SEPOLIA_USDC_DOMAIN,
      message: twaMessage('0x857b06519E91e3A54538791bDbb0E22373e36b66'),
    },
    expect: {
      domainSeparator: '0x71f17a3b2ff373b803d70a5a07c046c1a2bc8e89c09ef722fcb047abe94c9818',
    },
    signature: '0x2d6a7588d6acca505cbf0d9a4a227e0c52c6c34008c8e8986a1283259764173'
      + '608a2ce6496642e377d6da8dbbf5836e9bd15092f9ecab05ded3d6293af148b571c',
    signer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
  },
];

const publishedOut = [];
for (const p of published) {
  const h = hashes(p.typedData);
  for (const k of ['encodeType', 'typeHash', 'domainSeparator', 'hashStruct', 'digest'])
    if (p.expect[k] !== undefined && p.expect[k] !== h[k])
      throw new Error(`${p.name}: ${k} is ${h[k]}, published ${p.expect[k]}`);
  const args = {
    domain: p.typedData.domain, types: h.structs, primaryType: p.typedData.primaryType, message: h.data,
  };
  let { signature, signer } = p;
  if (p.sign) {
    const signing = privateKeyToAccount(p.sign);
    signature = await signing.signTypedData(args);
    signer = signing.address;
    if ((p.expect.signaturePrefix && !signature.startsWith(p.expect.signaturePrefix))
      || (p.expect.signatureSuffix && !signature.endsWith(p.expect.signatureSuffix)))
      throw new Error(`${p.name}: signature ${signature} differs from the published one`);
  }
  const recovered = await recoverTypedDataAddress({ ...args, signature });
  if (recovered !== signer)
    throw new Error(`${p.name}: signature recovers to ${recovered}, not ${signer}`);
  publishedOut.push({
    name: p.name,
    source: p.source,
    ...(p.kind ? { kind: p.kind } : {}),
    typedData: p.typedData,
    encodeType: h.encodeType,
    typeHash: h.typeHash,
    domainSeparator: h.domainSeparator,
    hashStruct: h.hashStruct,
    digest: h.digest,
    signature,
    signer,
  });
}

const out = {
  description: 'EIP-712 vectors computed with viem by t/tools/gen-eip712-vectors.mjs (do not edit by hand): '
    + '"vectors" are sample messages of the Boon typed-data kinds signed with the Anvil test key; '
    + '"published" are the vectors quoted in shared/reference, re-derived with viem',
  generator: 't/tools/gen-eip712-vectors.mjs',
  viem: viemVersion,
  signer: { note: 'public Anvil/Hardhat account 0 test key; never fund it', privateKey: KEY, address: account.address },
  vectors,
  published: publishedOut,
};
writeFileSync(join(here, '../vectors/eip712-boon.json'), JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${vectors.length} vectors and ${publishedOut.length} published vectors with viem ${viemVersion}`);
