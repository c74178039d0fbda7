// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TipBenchEmitter (tests and benchmarks only)
/// @notice Emits many synthetic tips events with exactly the tips contract's event signatures,
///         so an indexer configured with this contract as its tips contract decodes them the
///         same way. No tokens move. Everything is derived from the global index, so the same
///         arguments give the same events. Event i (global index) belongs to group g = i / 10,
///         whose tip ids are 10g+1 .. 10g+5, and is step k = i % 10 of it:
///           0 Tip (10g+1, pushed to handle A)       5 TipAgent (10g+3, agent 1 + g % 7)
///           1 TipEscrowed (10g+2 to handle B)       6 PrivateTip (10g+4 to handle A)
///           2 Linked (B)                            7 PrivateTipEscrowed (10g+5 to handle C)
///           3 EscrowedClaimed (10g+2)               8 EscrowedRefunded (10g+5, private)
///           4 DeferredAttestationMinted (10g+2)     9 Relinked (B)
///         Handles: A = github:bench<g % 50>, B = x:b<g % 40>, C = github:c<g % 30>; tippers and
///         wallets are one of 100 derived addresses.
contract TipBenchEmitter {
    event Tip(
        uint256 indexed tipId,
        bytes32 indexed handleHash,
        address indexed tipper,
        address recipient,
        string displayHandle,
        string note,
        uint256 usdcAmount,
        bool mintAttestation
    );
    event TipEscrowed(
        uint256 indexed tipId,
        bytes32 indexed handleHash,
        address indexed tipper,
        string displayHandle,
        string note,
        uint256 usdcAmount,
        bool mintAttestation
    );
    event TipAgent(
        uint256 indexed tipId,
        uint256 indexed agentId,
        address indexed tipper,
        address resolvedAgentWallet,
        string note,
        uint256 usdcAmount,
        bool mintAttestation
    );
    event PrivateTip(
        uint256 indexed tipId,
        bytes32 indexed handleHash,
        address indexed tipper,
        string displayHandle,
        bytes32 privateCommitment
    );
    event PrivateTipEscrowed(
        uint256 indexed tipId,
        bytes32 indexed handleHash,
        address indexed tipper,
        string displayHandle,
        bytes32 privateCommitment,
        bool mintAttestation
    );
    event EscrowedClaimed(uint256 indexed tipId, bytes32 indexed handleHash, address indexed recipient, uint256 usdcAmount);
    event EscrowedRefunded(uint256 indexed tipId, bytes32 indexed handleHash, address indexed tipper, uint256 usdcAmount);
    event DeferredAttestationMinted(uint256 indexed tipId, address indexed recipient, bytes32 indexed handleHash);
    event Linked(bytes32 indexed handleHash, address indexed wallet);
    event Relinked(bytes32 indexed handleHash, address indexed oldWallet, address indexed newWallet);

    function emitMany(uint256 n, uint256 offset) external {
        for (uint256 i = 0; i < n; ++i) {
            _emitOne(offset + i);
        }
    }

    /// One log with Tip's topic0 and a topic missing, as a broken contract could emit: an
    /// indexer must refuse it (and stop that contract's source there) rather than guess.
    function emitMalformed() external {
        bytes32 t = Tip.selector;
        assembly {
            log3(0, 0, t, 1, 2)
        }
    }

    function _emitOne(uint256 idx) internal {
        uint256 g = idx / 10;
        uint256 k = idx % 10;
        uint256 base = 10 * g;
        uint256 amount = 100_000 + (uint256(keccak256(abi.encode("amount", idx))) % 900_000);
        address tipper = _addr("tipper", g);
        address wallet = _addr("wallet", g);
        if (k == 0) {
            string memory a = string.concat("github:bench", _dec(g % 50));
            emit Tip(base + 1, keccak256(bytes(a)), tipper, wallet, a, string.concat("pr:bench/repo#", _dec(g)), amount, false);
        } else if (k == 1) {
            string memory b = string.concat("x:b", _dec(g % 40));
            emit TipEscrowed(base + 2, keccak256(bytes(b)), tipper, b, "review:bench/repo#1", 250_000, true);
        } else if (k == 2) {
            emit Linked(_hb(g), wallet);
        } else if (k == 3) {
            emit EscrowedClaimed(base + 2, _hb(g), wallet, 250_000);
        } else if (k == 4) {
            emit DeferredAttestationMinted(base + 2, wallet, _hb(g));
        } else if (k == 5) {
            emit TipAgent(base + 3, 1 + (g % 7), tipper, _addr("agent", g % 7), "", amount, false);
        } else if (k == 6) {
            string memory a = string.concat("github:bench", _dec(g % 50));
            emit PrivateTip(base + 4, keccak256(bytes(a)), tipper, a, keccak256(abi.encode("commit", idx)));
        } else if (k == 7) {
            string memory c = string.concat("github:c", _dec(g % 30));
            emit PrivateTipEscrowed(base + 5, keccak256(bytes(c)), tipper, c, keccak256(abi.encode("commit", idx)), false);
        } else if (k == 8) {
            emit EscrowedRefunded(base + 5, keccak256(bytes(string.concat("github:c", _dec(g % 30)))), tipper, 777_777);
        } else {
            emit Relinked(_hb(g), wallet, _addr("wallet2", g));
        }
    }

    function _hb(uint256 g) internal pure returns (bytes32) {
        return keccak256(bytes(string.concat("x:b", _dec(g % 40))));
    }

    function _addr(string memory what, uint256 g) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("waymark:tip-bench", what, g % 100)))));
    }

    function _dec(uint256 v) internal pure returns (string memory) {
        if (v == 0) return "0";
        uint256 n;
        for (uint256 t = v; t != 0; t /= 10) n++;
        bytes memory out = new bytes(n);
        for (; v != 0; v /= 10) out[--n] = bytes1(uint8(48 + (v % 10)));
        return string(out);
    }
}
