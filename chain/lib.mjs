// Shared helpers for the chain/ scripts (viem only). Not a CLI.
// The scripts are tools of tools/cli.mjs, run in process by the suite's
// helper: nothing here exits or keeps state between calls; die() and
// parseArgs() throw, and tool() writes what they threw.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  createWalletClient,
  http,
  defineChain,
  keccak256,
  toBytes,
  concat,
  encodeAbiParameters,
  decodeEventLog,
  getAddress,
  BaseError,
  ContractFunctionRevertedError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureBuilt, loadArtifact } from './compile.mjs';
import { Exit } from '../tools/cli.mjs';

export { ensureBuilt, loadArtifact };

// The well-known default anvil/hardhat dev keys (mnemonic "test test … junk"), accounts #0..#9.
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
];

export const CANONICAL_USDC = {
  8453: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  84532: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
export const BURN_ADDRESS = '0x000000000000000000000000000000000000dEaD';
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
export const ZERO_HASH = '0x' + '00'.repeat(32);
export const BURN_AMOUNT = 100_000n * 10n ** 18n;
export const ROUTED_BOON_SIGNATURE =
  'RoutedBoon(bytes32,address,bytes32,address,uint256,address,uint256,uint256)';

// The tip contracts (TipSettlement, GratitudeAttestation, AgentIdentityRegistry) as deploy.mjs
// sets them up: vouchers signed by anvil #9 (trusted signer), co-signed by anvil #0 (escrow
// guardian); burns and the unlock price as the deployed tips contract fixes them.
export const TIP_SIGNER_INDEX = 9;
export const TIP_GUARDIAN_INDEX = 0;
export const PRIVATE_TIP_BURN = 500_000n * 10n ** 18n;
export const ATTESTATION_BURN = 3_000_000n * 10n ** 18n;
export const UNLOCK_PRICE_USDC = 1_000_000n;
export const ATTESTATION_BASE_URI = 'https://attestations.invalid/tip/';

// ------------------------------------------------------------------ CLI

// What die() and parseArgs' -h throw; tool() writes them.
class Die extends Exit {
  constructor(status, text) {
    super(status, text);
    this.text = `${text}`;
  }
}
class Help extends Exit {}

/**
 * Runs body, the whole of a chain tool's main(argv, io) (module url): a die(msg, code) in it
 * ends the call with "SCRIPT: msg" on its standard error and status code, parseArgs' -h
 * with the usage on its standard output and status 0, as when they exited the process.
 */
export async function tool(url, io, body) {
  try {
    return await body();
  } catch (e) {
    if (e instanceof Help) {
      io.out(e.message + '\n');
      return 0;
    }
    if (e instanceof Die) {
      io.err(`${path.basename(fileURLToPath(url))}: ${e.text}\n`);
      return e.status;
    }
    throw e;
  }
}

/** Runs body; any error but a tool's end dies with status 1 (the scripts' main().catch). */
export async function orDie(body) {
  try {
    return await body();
  } catch (e) {
    if (e instanceof Exit) throw e;
    return die(e.shortMessage || e.message, 1);
  }
}

/**
 * Minimal `--name value` / `--flag` parser. spec: {name: 'string'|'bool'}. Unknown options,
 * missing values and missing required options (names in `required`) are fatal.
 */
export function parseArgs(argv, spec, required = [], usage = '') {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') throw new Help(0, usage);
    if (!a.startsWith('--')) die(`unexpected argument: ${a}\n${usage}`);
    let key = a.slice(2);
    let val;
    const eq = key.indexOf('=');
    if (eq >= 0) {
      val = key.slice(eq + 1);
      key = key.slice(0, eq);
    }
    if (!(key in spec)) die(`unknown option --${key}\n${usage}`);
    if (spec[key] === 'bool') {
      out[key] = val === undefined ? true : val !== 'false' && val !== '0';
    } else {
      if (val === undefined) {
        if (i + 1 >= argv.length) die(`--${key} needs a value\n${usage}`);
        val = argv[++i];
      }
      out[key] = val;
    }
  }
  for (const r of required) if (out[r] === undefined) die(`missing --${r}\n${usage}`);
  return out;
}

/** Ends the tool: "SCRIPT: msg" on its standard error, exit status code (see tool()). */
export function die(msg, code = 2) {
  throw new Die(code, msg);
}

export function parseBytes32(s, what) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(s || '')) die(`${what} must be 0x followed by 64 hex digits`);
  return s.toLowerCase();
}

export function parseAddress(s, what) {
  if (!/^0x[0-9a-fA-F]{40}$/.test(s || '')) die(`${what} must be a 0x-prefixed 20-byte address`);
  try {
    return getAddress(s);
  } catch {
    // A mixed-case address with a wrong checksum: refuse rather than guess.
    die(`${what}: bad EIP-55 checksum`);
  }
}

export function parseUint(s, what) {
  if (!/^[0-9]+$/.test(s || '')) die(`${what} must be a non-negative decimal integer`);
  return BigInt(s);
}

export function parseKey(s, what) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(s || '')) die(`${what} must be a 0x-prefixed 32-byte private key`);
  return s;
}

// ------------------------------------------------------------------ state file

// file: as the caller named it (messages name it so); io.resolve makes it absolute.
export function readState(file, io) {
  try {
    return JSON.parse(fs.readFileSync(io ? io.resolve(file) : file, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw new Error(`cannot read state file ${file}: ${e.message}`);
  }
}

export function requireState(file, extra = [], io) {
  const st = readState(file, io);
  if (!st) die(`state file ${file} not found (run chain/deploy.mjs first)`);
  for (const k of ['chainId', 'usdc', 'boon', 'companion', ...extra]) {
    if (!st[k]) die(`state file ${file} lacks "${k}"`);
  }
  return st;
}

export function writeStateAtomic(file, obj, io) {
  const abs = io ? io.resolve(file) : path.resolve(file);
  const dir = path.dirname(abs);
  fs.mkdirSync(dir, { recursive: true });
  // Calls in one process share a pid: the random part keeps their temporary files apart.
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(obj, null, 2) + '\n');
  fs.renameSync(tmp, abs);
}

// ------------------------------------------------------------------ clients

/** Connects, reads eth_chainId, and returns clients bound to a chain object with that id. */
export async function connect(rpc) {
  const transport = http(rpc, { retryCount: 0, timeout: 60_000 });
  const probe = createPublicClient({ transport });
  let chainId;
  try {
    chainId = await probe.getChainId();
  } catch (e) {
    die(`cannot reach ${rpc}: ${e.shortMessage || e.message}`, 1);
  }
  const chain = defineChain({
    id: chainId,
    name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const wallet = (key) => createWalletClient({ chain, transport, account: privateKeyToAccount(key) });
  return { chainId, chain, publicClient, wallet, rpc };
}

/** Poll for a receipt (fast on automine, still correct with interval mining). */
export async function waitReceipt(publicClient, hash, timeoutMs = 120_000) {
  const t0 = Date.now();
  for (let delay = 2; ; delay = Math.min(delay * 2, 200)) {
    const r = await publicClient.request({ method: 'eth_getTransactionReceipt', params: [hash] });
    if (r) return publicClient.getTransactionReceipt({ hash });
    if (Date.now() - t0 > timeoutMs) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, delay));
  }
}

/** writeContract + wait; throws when the transaction reverted. */
export async function sendCall(ctx, walletClient, { address, abi, functionName, args, gas }) {
  const hash = await walletClient.writeContract({ address, abi, functionName, args, gas });
  const receipt = await waitReceipt(ctx.publicClient, hash);
  if (receipt.status !== 'success') throw new Error(`${functionName} reverted in tx ${hash}`);
  return receipt;
}

/** deployContract + wait; returns {address, receipt}. */
export async function deploy(ctx, walletClient, artifact, args = []) {
  const hash = await walletClient.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  const receipt = await waitReceipt(ctx.publicClient, hash);
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deploying ${artifact.contractName} failed (tx ${hash})`);
  }
  return { address: getAddress(receipt.contractAddress), receipt };
}

export async function hasCode(publicClient, address) {
  const code = await publicClient.getCode({ address });
  return !!code && code !== '0x';
}

/** Extract a revert reason string from a viem error (or its short message). */
export function revertReason(err) {
  if (err instanceof BaseError) {
    const rev = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (rev instanceof ContractFunctionRevertedError) {
      if (rev.reason) return rev.reason;
      if (rev.data?.errorName) return rev.data.errorName;
    }
    const m = /reverted with reason string '([^']*)'/.exec(err.message) || /execution reverted: ([^\n]*)/.exec(err.message);
    if (m) return m[1];
    return err.shortMessage || err.message;
  }
  return String(err?.message || err);
}

// ------------------------------------------------------------------ funding

/** Top up ETH for gas on anvil (no-op elsewhere or when the account already has some). */
export async function ensureGas(ctx, address) {
  const bal = await ctx.publicClient.getBalance({ address });
  if (bal >= 10n ** 17n) return;
  try {
    await ctx.publicClient.request({ method: 'anvil_setBalance', params: [address, '0x' + (10n ** 20n).toString(16)] });
  } catch (e) {
    throw new Error(`${address} has no ETH for gas and anvil_setBalance failed: ${e.shortMessage || e.message}`);
  }
}

/**
 * Make sure `walletClient`'s account holds at least usdcNeeded USDC and boonNeeded BOON and has
 * approved the companion for at least those amounts (minting the shortfall with the open test mints).
 */
export async function fundAndApprove(ctx, walletClient, st, usdcNeeded, boonNeeded, spender = st.companion) {
  const usdcAbi = loadArtifact('TestUSDC').abi;
  const boonAbi = loadArtifact('BoonToken').abi;
  const me = walletClient.account.address;
  await ensureGas(ctx, me);
  const pc = ctx.publicClient;
  const tokens = [
    { address: st.usdc, abi: usdcAbi, need: usdcNeeded },
    { address: st.boon, abi: boonAbi, need: boonNeeded },
  ];
  for (const t of tokens) {
    if (t.need === 0n) continue;
    const bal = await pc.readContract({ address: t.address, abi: t.abi, functionName: 'balanceOf', args: [me] });
    if (bal < t.need) {
      await sendCall(ctx, walletClient, { address: t.address, abi: t.abi, functionName: 'mint', args: [me, t.need - bal] });
    }
    const allowed = await pc.readContract({
      address: t.address,
      abi: t.abi,
      functionName: 'allowance',
      args: [me, spender],
    });
    if (allowed < t.need) {
      await sendCall(ctx, walletClient, {
        address: t.address,
        abi: t.abi,
        functionName: 'approve',
        args: [spender, t.need],
      });
    }
  }
}

// ------------------------------------------------------------------ Boon ids

/**
 * routeId exactly as the Boon protocol derives it, for an https URL that is already normalized
 * (lowercase host, default port, no query/fragment, WHATWG-serialized path).
 */
export function routeIdFor(method, url) {
  const u = new URL(url);
  const m = method.toUpperCase();
  if (u.protocol !== 'https:') throw new Error(`route URL must be https: ${url}`);
  if (u.username || u.password || u.search || u.hash) throw new Error(`route URL is not normalized: ${url}`);
  const origin = u.origin; // https://host[:port], port omitted when 443
  const pathName = u.pathname || '/';
  if (url !== origin + pathName && url !== origin) throw new Error(`route URL is not normalized: ${url}`);
  return keccak256(toBytes(`boon:x402-route:v1\n${m}\n${origin}\n${pathName}`));
}

/** settlementContextRef(network, txHash) as the Boon protocol defines it. */
export function settlementContextRef(network, txHash) {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'bytes32' }],
      ['boon:x402-settlement-context:v1', network, txHash],
    ),
  );
}

// ------------------------------------------------------------------ events

/** RoutedBoon events emitted by `emitter` in a receipt, as JSON-ready objects. */
export function routedBoonsFromReceipt(receipt, emitter, abi) {
  const out = [];
  const want = emitter.toLowerCase();
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== want) continue;
    let ev;
    try {
      ev = decodeEventLog({ abi, data: log.data, topics: log.topics });
    } catch {
      continue;
    }
    if (ev.eventName !== 'RoutedBoon') continue;
    const a = ev.args;
    out.push({
      txHash: receipt.transactionHash,
      logIndex: Number(log.logIndex),
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      routeId: a.routeId,
      tipper: getAddress(a.tipper),
      contextRef: a.contextRef,
      endpointPayTo: getAddress(a.endpointPayTo),
      endpointGratuityUsdc: a.endpointGratuityUsdc.toString(),
      networkPayTo: getAddress(a.networkPayTo),
      networkGratuityUsdc: a.networkGratuityUsdc.toString(),
      boonBurned: a.boonBurned.toString(),
    });
  }
  return out;
}

// ------------------------------------------------------------------ tips

/** keccak256(utf8(handle)): the handleHash of a (canonical) handle, also agent:<id>. */
export function handleHash(handle) {
  return keccak256(toBytes(handle));
}

/**
 * The private-tip commitment (docs/PROTOCOL.md, Private tips; the contract only stores it):
 * keccak256(salt || utf8(note)), salt 32 bytes. The note's blob goes to the service with
 * POST /api/v1/private-tip-blobs {privateCommitment, note, salt}.
 */
export function privateCommitment(note, salt) {
  return keccak256(concat([toBytes(salt), toBytes(note)]));
}

/** EIP-712 Link voucher signature by `key` (trusted signer or guardian) for the tips contract. */
export async function signLink(ctx, key, tips, handleHashHex, recipient, nonce) {
  const account = privateKeyToAccount(key);
  return account.signTypedData({
    domain: { name: 'Boon', version: '3', chainId: ctx.chainId, verifyingContract: tips },
    types: {
      Link: [
        { name: 'handleHash', type: 'bytes32' },
        { name: 'recipient', type: 'address' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Link',
    message: { handleHash: handleHashHex, recipient, nonce },
  });
}

/** EIP-712 AgentWalletSet proof signed by the new wallet's key. */
export async function signAgentWallet(ctx, key, registry, agentId, newWallet, owner, deadline) {
  const account = privateKeyToAccount(key);
  return account.signTypedData({
    domain: { name: 'ERC8004IdentityRegistry', version: '1', chainId: ctx.chainId, verifyingContract: registry },
    types: {
      AgentWalletSet: [
        { name: 'agentId', type: 'uint256' },
        { name: 'newWallet', type: 'address' },
        { name: 'owner', type: 'address' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet, owner, deadline },
  });
}

function jsonValue(v) {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) return getAddress(v);
  return v;
}

/**
 * Every log of a receipt emitted by one of `sources` ({address, abi, contract}) decoded as
 * {contract, event, logIndex, args} (bigints as decimal strings, addresses EIP-55).
 */
export function eventsFromReceipt(receipt, sources) {
  const out = [];
  for (const log of receipt.logs) {
    const src = sources.find((s) => s.address.toLowerCase() === log.address.toLowerCase());
    if (!src) continue;
    let ev;
    try {
      ev = decodeEventLog({ abi: src.abi, data: log.data, topics: log.topics });
    } catch {
      continue;
    }
    const args = {};
    for (const [k, v] of Object.entries(ev.args)) args[k] = jsonValue(v);
    out.push({ contract: src.contract, event: ev.eventName, logIndex: Number(log.logIndex), args });
  }
  return out;
}
