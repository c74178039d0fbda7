// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IAgentWallet1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @title AgentIdentityRegistry
/// @notice Local-chain ERC-8004 identity registry: an ERC-721 whose token id is the agent id and
///         whose token URI is the agent URI. The verified payout wallet (`agentWallet`) is set to
///         the owner at registration, changed only by setAgentWallet with an EIP-712 proof signed
///         by the new wallet (ECDSA, or ERC-1271 for a contract wallet), cleared by
///         unsetAgentWallet and on every transfer. getAgentWallet returns zero when unset,
///         cleared or unknown, and never reverts. Agent ids start at 1 here (the deployed
///         registry starts at 0; handles name positive ids only).
///         Written for waymark's tests (docs/PROTOCOL.md, Tips); not the deployed source.
contract AgentIdentityRegistry {
    error ERC721NonexistentToken(uint256 tokenId);

    string public constant name = "AgentIdentity";
    string public constant symbol = "AGENT";
    bytes32 public constant AGENT_WALLET_SET_TYPEHASH =
        keccak256("AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    uint256 private constant MAX_DEADLINE_DELAY = 5 minutes;
    uint256 private constant SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    uint256 private lastId;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) private operators;
    mapping(uint256 => string) private uris;
    mapping(uint256 => address) private wallets;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);

    function getVersion() external pure returns (string memory) {
        return "waymark-local-1";
    }

    // ------------------------------------------------------------------ registration

    function register() external returns (uint256 agentId) {
        agentId = _register("");
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _register(agentURI);
    }

    function _register(string memory agentURI) internal returns (uint256 agentId) {
        agentId = ++lastId;
        uris[agentId] = agentURI;
        wallets[agentId] = msg.sender;
        emit Registered(agentId, agentURI, msg.sender);
        owners[agentId] = msg.sender;
        balances[msg.sender] += 1;
        emit Transfer(address(0), msg.sender, agentId);
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external {
        require(_authorized(msg.sender, agentId), "Not authorized");
        uris[agentId] = newURI;
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    // ------------------------------------------------------------------ agent wallet

    function getAgentWallet(uint256 agentId) external view returns (address) {
        return wallets[agentId];
    }

    function agentWalletDigest(uint256 agentId, address newWallet, address owner, uint256 deadline)
        public
        view
        returns (bytes32)
    {
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("ERC8004IdentityRegistry"), keccak256("1"), block.chainid, address(this))
        );
        bytes32 structHash = keccak256(abi.encode(AGENT_WALLET_SET_TYPEHASH, agentId, newWallet, owner, deadline));
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature) external {
        require(newWallet != address(0), "bad wallet");
        require(block.timestamp <= deadline, "expired");
        require(deadline <= block.timestamp + MAX_DEADLINE_DELAY, "deadline too far");
        address owner = ownerOf(agentId);
        require(_authorized(msg.sender, agentId), "Not authorized");
        bytes32 digest = agentWalletDigest(agentId, newWallet, owner, deadline);
        if (newWallet.code.length == 0) {
            require(_recover(digest, signature) == newWallet, "invalid wallet sig");
        } else {
            require(IAgentWallet1271(newWallet).isValidSignature(digest, signature) == 0x1626ba7e, "invalid wallet sig");
        }
        wallets[agentId] = newWallet;
        emit MetadataSet(agentId, "agentWallet", "agentWallet", abi.encodePacked(newWallet));
    }

    function unsetAgentWallet(uint256 agentId) external {
        ownerOf(agentId);
        require(_authorized(msg.sender, agentId), "Not authorized");
        _clearWallet(agentId);
    }

    function getMetadata(uint256 agentId, string calldata key) external view returns (bytes memory) {
        if (keccak256(bytes(key)) == keccak256("agentWallet") && wallets[agentId] != address(0)) {
            return abi.encodePacked(wallets[agentId]);
        }
        return "";
    }

    // ------------------------------------------------------------------ ERC-721

    function ownerOf(uint256 agentId) public view returns (address owner) {
        owner = owners[agentId];
        if (owner == address(0)) revert ERC721NonexistentToken(agentId);
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "zero address");
        return balances[owner];
    }

    function tokenURI(uint256 agentId) external view returns (string memory) {
        ownerOf(agentId);
        return uris[agentId];
    }

    function getApproved(uint256 agentId) external view returns (address) {
        ownerOf(agentId);
        return approvals[agentId];
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return operators[owner][operator];
    }

    function approve(address to, uint256 agentId) external {
        address owner = ownerOf(agentId);
        require(msg.sender == owner || operators[owner][msg.sender], "Not authorized");
        approvals[agentId] = to;
        emit Approval(owner, to, agentId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 agentId) public {
        require(to != address(0), "zero recipient");
        require(ownerOf(agentId) == from, "wrong owner");
        require(_authorized(msg.sender, agentId), "Not authorized");
        delete approvals[agentId];
        balances[from] -= 1;
        balances[to] += 1;
        owners[agentId] = to;
        emit Transfer(from, to, agentId);
        // The verified wallet does not follow the token to its new owner.
        _clearWallet(agentId);
    }

    function safeTransferFrom(address from, address to, uint256 agentId) external {
        transferFrom(from, to, agentId);
    }

    function safeTransferFrom(address from, address to, uint256 agentId, bytes calldata) external {
        transferFrom(from, to, agentId);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    // ------------------------------------------------------------------ internals

    function _authorized(address who, uint256 agentId) internal view returns (bool) {
        address owner = owners[agentId];
        return owner != address(0) && (who == owner || operators[owner][who] || approvals[agentId] == who);
    }

    function _clearWallet(uint256 agentId) internal {
        wallets[agentId] = address(0);
        emit MetadataSet(agentId, "agentWallet", "agentWallet", "");
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
}
