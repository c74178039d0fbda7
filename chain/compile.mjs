#!/usr/bin/env node
// Compile chain/contracts/*.sol with solc-js (local, no downloads) into
// chain/build/<ContractName>.json = {abi, bytecode, deployedBytecode}.
// Optimizer on (200 runs), evmVersion cancun. A no-op when build/.stamp is newer than every
// source file and this script (and every expected artifact exists).
//
// Usage: node chain/compile.mjs [--force]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CONTRACTS_DIR = path.join(HERE, 'contracts');
export const BUILD_DIR = path.join(HERE, 'build');
const STAMP = path.join(BUILD_DIR, '.stamp');

function sources() {
  return fs.readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith('.sol')).sort();
}

function upToDate(files) {
  let stamp;
  try {
    stamp = fs.statSync(STAMP).mtimeMs;
  } catch {
    return false;
  }
  const inputs = [fileURLToPath(import.meta.url), ...files.map((f) => path.join(CONTRACTS_DIR, f))];
  for (const f of inputs) if (fs.statSync(f).mtimeMs > stamp) return false;
  // Every source must have produced at least its same-named artifact.
  for (const f of files) {
    if (!fs.existsSync(path.join(BUILD_DIR, f.replace(/\.sol$/, '.json')))) return false;
  }
  return true;
}

/**
 * Compile if needed. Returns true when it compiled, false when it was a no-op. err: where
 * solc's warnings and errors go (a tool's io.err; default this process's standard error).
 */
export function ensureBuilt({ force = false, err = (m) => process.stderr.write(m) } = {}) {
  const files = sources();
  if (!force && upToDate(files)) return false;

  const require = createRequire(import.meta.url);
  const solc = require('solc'); // loaded only when needed: soljson is ~9 MB
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      files.map((f) => [f, { content: fs.readFileSync(path.join(CONTRACTS_DIR, f), 'utf8') }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors || []).filter((e) => e.severity === 'error');
  for (const e of out.errors || []) {
    if (e.severity !== 'error') err(`compile.mjs: ${e.formattedMessage || e.message}\n`);
  }
  if (errors.length) {
    for (const e of errors) err(`compile.mjs: ${e.formattedMessage || e.message}\n`);
    throw new Error(`solc reported ${errors.length} error(s)`);
  }

  fs.mkdirSync(BUILD_DIR, { recursive: true });
  for (const [file, contracts] of Object.entries(out.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      // Interfaces and abstract contracts have no bytecode: skip them.
      if (!c.evm.bytecode.object) continue;
      const artifact = {
        contractName: name,
        sourceName: file,
        compiler: `solc-js ${solc.version()}`,
        abi: c.abi,
        bytecode: '0x' + c.evm.bytecode.object,
        deployedBytecode: '0x' + c.evm.deployedBytecode.object,
      };
      // A temporary name of this compile's own: two compiles at once (two
      // stacks deploying) never rename each other's half-written file.
      const tmp = path.join(BUILD_DIR, `.${name}.json.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
      fs.writeFileSync(tmp, JSON.stringify(artifact, null, 1) + '\n');
      fs.renameSync(tmp, path.join(BUILD_DIR, `${name}.json`));
    }
  }
  fs.writeFileSync(STAMP, new Date().toISOString() + '\n');
  return true;
}

/** Read build/<name>.json (call ensureBuilt() first). */
export function loadArtifact(name) {
  return JSON.parse(fs.readFileSync(path.join(BUILD_DIR, `${name}.json`), 'utf8'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  try {
    const did = ensureBuilt({ force: process.argv.includes('--force') });
    process.stderr.write(
      did ? `compile.mjs: compiled ${sources().length} file(s) in ${Date.now() - t0} ms\n` : 'compile.mjs: up to date\n',
    );
  } catch (e) {
    process.stderr.write(`compile.mjs: ${e.message}\n`);
    process.exit(1);
  }
}
