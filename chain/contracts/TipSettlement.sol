// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ITipToken {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
}

interface ITipPermitToken {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external;
}

interface ITipAgentRegistry {
    function ownerOf(uint256 agentId) external view returns (address);
    function getAgentWallet(uint256 agentId) external view returns (address);
}

interface ITipAttestation {
    function mint(address to, uint256 tipId, bytes32 handleHash) external;
}

/// @title TipSettlement
/// @notice Local-chain tip settlement with the deployed tips contract's (V3) functions, events
///         and constants. A tip pays USDC to the wallet a handle is linked to, or holds it in
///         escrow until the handle is linked and claimed (or the tipper takes it back after
///         ESCROW_REFUND_DELAY, while the handle was never claimed). Agent tips pay an ERC-8004
///         agent's payout wallet, resolved from the identity registry at tip time. Private tips
///         carry a commitment instead of an amount and note in their events and burn
///         PRIVATE_TIP_BURN BOON; asking for a soulbound attestation burns ATTESTATION_BURN BOON.
///         Handles are linked and relinked by EIP-712 vouchers of the trusted signer; linking a
///         handle that has USDC in escrow also needs the escrow guardian's signature.
///         Written for waymark's tests (docs/PROTOCOL.md, Tips); not the deployed source.
contract TipSettlement {
    struct Permit {
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    struct Escrow {
        address tipper;
        uint64 createdAt;
        bool open;
        bool mintAttestation;
        bytes32 handleHash;
        uint256 amount;
        uint256 next; // next tip id in the handle's escrow list (0: none)
    }

    uint256 public constant MAX_HANDLE_LEN = 90;
    uint256 public constant MAX_NOTE_LEN = 280;
    uint256 public constant MIN_ESCROW_USDC = 100_000;
    uint256 public constant MAX_ESCROW_PER_HANDLE = 256;
    uint256 public constant DEFAULT_CLAIM_LIMIT = 32;
    uint256 public constant ESCROW_REFUND_DELAY = 180 days;
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;
    bytes32 public constant LINK_TYPEHASH = keccak256("Link(bytes32 handleHash,address recipient,uint256 nonce)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    uint256 private constant SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    uint256 public immutable PRIVATE_TIP_BURN;
    uint256 public immutable ATTESTATION_BURN;
    uint256 public immutable UNLOCK_PRICE_USDC;
    address public immutable USDC;
    address public immutable BOON;
    address public immutable IDENTITY_REGISTRY;
    address public immutable ATTESTATION;
    address public immutable trustedSigner;
    address public immutable escrowGuardian;

    uint256 public tipCount; // tip ids are 1, 2, 3, ...
    mapping(bytes32 => address) public linkedWallet;
    mapping(bytes32 => uint256) public nonces;
    mapping(bytes32 => bool) public everClaimed;
    mapping(bytes32 => uint256) public pendingCount; // open escrow entries per handle
    mapping(bytes32 => uint256) public pendingUsdc;
    mapping(bytes32 => uint256) public escrowHead;
    mapping(bytes32 => uint256) public escrowTail;
    mapping(uint256 => Escrow) public escrows;

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

    constructor(
        address usdc,
        address boon,
        address identityRegistry,
        address attestation,
        address signer,
        address guardian,
        uint256 privateTipBurn,
        uint256 attestationBurn,
        uint256 unlockPriceUsdc
    ) {
        require(
            usdc != address(0) && boon != address(0) && identityRegistry != address(0) && attestation != address(0),
            "Tips: zero address"
        );
        require(signer != address(0) && guardian != address(0), "Tips: zero signer");
        USDC = usdc;
        BOON = boon;
        IDENTITY_REGISTRY = identityRegistry;
        ATTESTATION = attestation;
        trustedSigner = signer;
        escrowGuardian = guardian;
        PRIVATE_TIP_BURN = privateTipBurn;
        ATTESTATION_BURN = attestationBurn;
        UNLOCK_PRICE_USDC = unlockPriceUsdc;
    }

    // ------------------------------------------------------------------ tips

    function tip(
        bytes32 handleHash,
        string calldata displayHandle,
        address expectedWalletOrZero,
        uint256 amount,
        string calldata note,
        bool mintAttestation,
        Permit calldata permit
    ) external returns (uint256 tipId) {
        _checkHandle(handleHash, displayHandle);
        require(bytes(note).length <= MAX_NOTE_LEN, "Tips: note too long");
        address wallet = _route(handleHash, expectedWalletOrZero, amount);
        _burn(mintAttestation ? ATTESTATION_BURN : 0, permit);
        tipId = ++tipCount;
        if (wallet != address(0)) {
            _pull(msg.sender, wallet, amount);
            emit Tip(tipId, handleHash, msg.sender, wallet, displayHandle, note, amount, mintAttestation);
            if (mintAttestation) ITipAttestation(ATTESTATION).mint(wallet, tipId, handleHash);
        } else {
            _escrow(tipId, handleHash, amount, mintAttestation);
            emit TipEscrowed(tipId, handleHash, msg.sender, displayHandle, note, amount, mintAttestation);
        }
    }

    function tipAgent(
        uint256 agentId,
        address expectedWallet,
        uint256 amount,
        string calldata note,
        bool mintAttestation,
        Permit calldata permit
    ) external returns (uint256 tipId) {
        require(bytes(note).length <= MAX_NOTE_LEN, "Tips: note too long");
        address payout = _agentPayout(agentId, expectedWallet, amount);
        _burn(mintAttestation ? ATTESTATION_BURN : 0, permit);
        tipId = ++tipCount;
        _pull(msg.sender, payout, amount);
        emit TipAgent(tipId, agentId, msg.sender, payout, note, amount, mintAttestation);
        if (mintAttestation) ITipAttestation(ATTESTATION).mint(payout, tipId, agentHandleHash(agentId));
    }

    function tipPrivate(
        bytes32 handleHash,
        string calldata displayHandle,
        address expectedWalletOrZero,
        uint256 amount,
        bytes32 privateCommitment,
        bool mintAttestation,
        Permit calldata permit
    ) external returns (uint256 tipId) {
        _checkHandle(handleHash, displayHandle);
        require(privateCommitment != bytes32(0), "Tips: no commitment");
        address wallet = _route(handleHash, expectedWalletOrZero, amount);
        _burn(PRIVATE_TIP_BURN + (mintAttestation ? ATTESTATION_BURN : 0), permit);
        tipId = ++tipCount;
        if (wallet != address(0)) {
            _pull(msg.sender, wallet, amount);
            emit PrivateTip(tipId, handleHash, msg.sender, displayHandle, privateCommitment);
            if (mintAttestation) ITipAttestation(ATTESTATION).mint(wallet, tipId, handleHash);
        } else {
            _escrow(tipId, handleHash, amount, mintAttestation);
            emit PrivateTipEscrowed(tipId, handleHash, msg.sender, displayHandle, privateCommitment, mintAttestation);
        }
    }

    function tipPrivateAgent(
        uint256 agentId,
        address expectedWallet,
        uint256 amount,
        bytes32 privateCommitment,
        bool mintAttestation,
        Permit calldata permit
    ) external returns (uint256 tipId) {
        require(privateCommitment != bytes32(0), "Tips: no commitment");
        address payout = _agentPayout(agentId, expectedWallet, amount);
        _burn(PRIVATE_TIP_BURN + (mintAttestation ? ATTESTATION_BURN : 0), permit);
        tipId = ++tipCount;
        bytes32 handleHash = agentHandleHash(agentId);
        _pull(msg.sender, payout, amount);
        emit PrivateTip(tipId, handleHash, msg.sender, agentHandle(agentId), privateCommitment);
        if (mintAttestation) ITipAttestation(ATTESTATION).mint(payout, tipId, handleHash);
    }

    // ------------------------------------------------------------------ links

    function link(bytes32 handleHash, address recipient, uint256 nonce, bytes calldata workerSig) external {
        require(pendingCount[handleHash] == 0, "Tips: escrow pending, guardian needed");
        _link(handleHash, recipient, nonce, workerSig, "");
    }

    function linkEscrowed(
        bytes32 handleHash,
        address recipient,
        uint256 nonce,
        bytes calldata workerSig,
        bytes calldata guardianSig
    ) external {
        _link(handleHash, recipient, nonce, workerSig, guardianSig);
    }

    function linkAndClaim(
        bytes32 handleHash,
        address recipient,
        uint256 nonce,
        bytes calldata workerSig,
        bytes calldata guardianSig,
        uint256 maxItems
    ) external returns (uint256 claimed) {
        _link(handleHash, recipient, nonce, workerSig, guardianSig);
        claimed = _claimList(handleHash, maxItems);
    }

    function relink(bytes32 handleHash, address newRecipient, uint256 nonce, bytes calldata workerSig) external {
        address old = linkedWallet[handleHash];
        require(old != address(0), "Tips: handle not linked");
        require(newRecipient != address(0) && newRecipient != old, "Tips: bad recipient");
        require(pendingCount[handleHash] == 0, "Tips: escrow pending, claim first");
        bytes32 digest = linkDigest(handleHash, newRecipient, nonce);
        require(nonce == nonces[handleHash], "Tips: bad nonce");
        require(_recover(digest, workerSig) == trustedSigner, "Tips: bad worker signature");
        nonces[handleHash] = nonce + 1;
        linkedWallet[handleHash] = newRecipient;
        emit Relinked(handleHash, old, newRecipient);
    }

    // ------------------------------------------------------------------ escrow

    function claim(bytes32 handleHash, uint256 maxItems) external returns (uint256 claimed) {
        require(linkedWallet[handleHash] != address(0), "Tips: handle not linked");
        claimed = _claimList(handleHash, maxItems);
    }

    function claimSpecific(uint256[] calldata tipIds) external returns (uint256 claimed) {
        for (uint256 i = 0; i < tipIds.length; i++) {
            Escrow storage e = escrows[tipIds[i]];
            require(e.open, "Tips: not in escrow");
            require(linkedWallet[e.handleHash] != address(0), "Tips: handle not linked");
            _settleClaim(tipIds[i], e);
            claimed++;
        }
    }

    function refund(uint256 tipId) external {
        Escrow storage e = escrows[tipId];
        require(e.open, "Tips: not in escrow");
        require(e.tipper == msg.sender, "Tips: not the tipper");
        require(block.timestamp >= uint256(e.createdAt) + ESCROW_REFUND_DELAY, "Tips: refund delay not over");
        require(!everClaimed[e.handleHash], "Tips: handle was claimed");
        e.open = false;
        pendingCount[e.handleHash] -= 1;
        pendingUsdc[e.handleHash] -= e.amount;
        require(ITipToken(USDC).transfer(msg.sender, e.amount), "Tips: USDC transfer failed");
        emit EscrowedRefunded(tipId, e.handleHash, msg.sender, e.amount);
    }

    // ------------------------------------------------------------------ views

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256("Boon"), keccak256("3"), block.chainid, address(this)));
    }

    function linkDigest(bytes32 handleHash, address recipient, uint256 nonce) public view returns (bytes32) {
        return keccak256(
            abi.encodePacked(
                "\x19\x01", domainSeparator(), keccak256(abi.encode(LINK_TYPEHASH, handleHash, recipient, nonce))
            )
        );
    }

    function agentHandle(uint256 agentId) public pure returns (string memory) {
        return string.concat("agent:", _decimal(agentId));
    }

    function agentHandleHash(uint256 agentId) public pure returns (bytes32) {
        return keccak256(bytes(agentHandle(agentId)));
    }

    // ------------------------------------------------------------------ internals

    function _checkHandle(bytes32 handleHash, string calldata displayHandle) internal pure {
        bytes memory h = bytes(displayHandle);
        require(h.length > 0 && h.length <= MAX_HANDLE_LEN, "Tips: bad handle length");
        require(keccak256(h) == handleHash, "Tips: handle hash mismatch");
        require(_hasPrefix(h, "x:") || _hasPrefix(h, "github:"), "Tips: handle must be x: or github:");
    }

    function _hasPrefix(bytes memory h, bytes memory p) internal pure returns (bool) {
        if (h.length <= p.length) return false;
        for (uint256 i = 0; i < p.length; i++) if (h[i] != p[i]) return false;
        return true;
    }

    /// The wallet a handle tip pays now (zero: escrow), checked against what the tipper expects.
    function _route(bytes32 handleHash, address expectedWalletOrZero, uint256 amount) internal view returns (address) {
        require(amount > 0, "Tips: zero amount");
        address wallet = linkedWallet[handleHash];
        require(wallet == expectedWalletOrZero, "Tips: linked wallet differs from expected");
        if (wallet == address(0)) {
            require(amount >= MIN_ESCROW_USDC, "Tips: escrow below minimum");
            require(pendingCount[handleHash] < MAX_ESCROW_PER_HANDLE, "Tips: escrow full");
        } else {
            require(wallet != msg.sender, "Tips: self-tip");
        }
        return wallet;
    }

    function _agentPayout(uint256 agentId, address expectedWallet, uint256 amount) internal view returns (address) {
        require(amount > 0, "Tips: zero amount");
        address payout = ITipAgentRegistry(IDENTITY_REGISTRY).getAgentWallet(agentId);
        if (payout == address(0)) payout = ITipAgentRegistry(IDENTITY_REGISTRY).ownerOf(agentId);
        require(payout != address(0), "Tips: agent has no payout wallet");
        require(payout == expectedWallet, "Tips: agent wallet differs from expected");
        require(payout != msg.sender, "Tips: self-tip");
        return payout;
    }

    function _pull(address from, address to, uint256 amount) internal {
        require(ITipToken(USDC).transferFrom(from, to, amount), "Tips: USDC transfer failed");
    }

    /// Burn BOON from the tipper: an ERC-2612 permit when one is given (deadline != 0), the
    /// existing allowance otherwise (also when the permit was already used).
    function _burn(uint256 amount, Permit calldata permit) internal {
        if (amount == 0) return;
        if (permit.deadline != 0) {
            try ITipPermitToken(BOON).permit(msg.sender, address(this), amount, permit.deadline, permit.v, permit.r, permit.s) {}
            catch {}
        }
        require(ITipToken(BOON).transferFrom(msg.sender, BURN_ADDRESS, amount), "Tips: BOON burn failed");
    }

    function _escrow(uint256 tipId, bytes32 handleHash, uint256 amount, bool mintAttestation) internal {
        _pull(msg.sender, address(this), amount);
        escrows[tipId] = Escrow({
            tipper: msg.sender,
            createdAt: uint64(block.timestamp),
            open: true,
            mintAttestation: mintAttestation,
            handleHash: handleHash,
            amount: amount,
            next: 0
        });
        uint256 tail = escrowTail[handleHash];
        if (tail == 0) escrowHead[handleHash] = tipId;
        else escrows[tail].next = tipId;
        escrowTail[handleHash] = tipId;
        pendingCount[handleHash] += 1;
        pendingUsdc[handleHash] += amount;
    }

    function _link(
        bytes32 handleHash,
        address recipient,
        uint256 nonce,
        bytes calldata workerSig,
        bytes memory guardianSig
    ) internal {
        require(linkedWallet[handleHash] == address(0), "Tips: handle already linked");
        require(recipient != address(0), "Tips: bad recipient");
        require(nonce == nonces[handleHash], "Tips: bad nonce");
        bytes32 digest = linkDigest(handleHash, recipient, nonce);
        require(_recover(digest, workerSig) == trustedSigner, "Tips: bad worker signature");
        if (pendingCount[handleHash] != 0) {
            require(_recover(digest, guardianSig) == escrowGuardian, "Tips: bad guardian signature");
        }
        nonces[handleHash] = nonce + 1;
        linkedWallet[handleHash] = recipient;
        emit Linked(handleHash, recipient);
    }

    /// Walk the handle's escrow list from its head: claim open entries, drop closed ones.
    function _claimList(bytes32 handleHash, uint256 maxItems) internal returns (uint256 claimed) {
        uint256 steps = maxItems == 0 ? DEFAULT_CLAIM_LIMIT : maxItems;
        uint256 id = escrowHead[handleHash];
        while (id != 0 && steps != 0) {
            Escrow storage e = escrows[id];
            uint256 next = e.next;
            if (e.open) {
                _settleClaim(id, e);
                claimed++;
            }
            id = next;
            steps--;
        }
        escrowHead[handleHash] = id;
        if (id == 0) escrowTail[handleHash] = 0;
    }

    function _settleClaim(uint256 tipId, Escrow storage e) internal {
        address wallet = linkedWallet[e.handleHash];
        e.open = false;
        everClaimed[e.handleHash] = true;
        pendingCount[e.handleHash] -= 1;
        pendingUsdc[e.handleHash] -= e.amount;
        require(ITipToken(USDC).transfer(wallet, e.amount), "Tips: USDC transfer failed");
        emit EscrowedClaimed(tipId, e.handleHash, wallet, e.amount);
        if (e.mintAttestation) {
            ITipAttestation(ATTESTATION).mint(wallet, tipId, e.handleHash);
            emit DeferredAttestationMinted(tipId, wallet, e.handleHash);
        }
    }

    function _recover(bytes32 digest, bytes memory sig) internal pure returns (address) {
        if (sig.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(sig, 32))
            s := mload(add(sig, 64))
            v := byte(0, mload(add(sig, 96)))
        }
        if (v < 27) v += 27;
        if (uint256(s) > SECP256K1_HALF_N || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _decimal(uint256 v) internal pure returns (string memory) {
        if (v == 0) return "0";
        uint256 n;
        for (uint256 t = v; t != 0; t /= 10) n++;
        bytes memory out = new bytes(n);
        for (; v != 0; v /= 10) out[--n] = bytes1(uint8(48 + (v % 10)));
        return string(out);
    }
}
