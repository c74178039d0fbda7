// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title GratitudeAttestation
/// @notice Local-chain soulbound gratitude attestation: ERC-721 with ERC-5192 (every token is
///         locked), token id = tip id. Only the tips contract mints (once per tip); only the
///         holder burns. Transfers and approvals revert with Soulbound(). tokenURI is the base
///         URI fixed at deployment followed by the decimal token id.
///         Written for waymark's tests (docs/PROTOCOL.md, Tips); not the deployed source.
contract GratitudeAttestation {
    error Soulbound();

    string public constant name = "Boon Gratitude Attestation";
    string public constant symbol = "BOON-SBT";

    address public immutable deployer;
    address public minter; // the tips contract, set once by the deployer
    string private baseURI;

    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => bool) public everMinted;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event Locked(uint256 tokenId);
    event AttestationMinted(uint256 indexed tipId, address indexed recipient, bytes32 indexed handleHash);
    event AttestationBurned(uint256 indexed tipId, address indexed holder);

    constructor(string memory metadataBaseURI) {
        deployer = msg.sender;
        baseURI = metadataBaseURI;
    }

    function setMinter(address tips) external {
        require(msg.sender == deployer, "Attestation: not the deployer");
        require(minter == address(0), "Attestation: minter already set");
        require(tips != address(0), "Attestation: zero minter");
        minter = tips;
    }

    function mint(address to, uint256 tipId, bytes32 handleHash) external {
        require(msg.sender == minter, "Attestation: not the minter");
        require(to != address(0), "Attestation: zero recipient");
        require(!everMinted[tipId], "Attestation: already minted");
        everMinted[tipId] = true;
        owners[tipId] = to;
        balances[to] += 1;
        emit Transfer(address(0), to, tipId);
        emit Locked(tipId);
        emit AttestationMinted(tipId, to, handleHash);
    }

    function burn(uint256 tokenId) external {
        address holder = owners[tokenId];
        require(holder != address(0), "Attestation: no such token");
        require(holder == msg.sender, "Attestation: not the holder");
        delete owners[tokenId];
        balances[holder] -= 1;
        emit Transfer(holder, address(0), tokenId);
        emit AttestationBurned(tokenId, holder);
    }

    // ERC-721 reads

    function ownerOf(uint256 tokenId) public view returns (address holder) {
        holder = owners[tokenId];
        require(holder != address(0), "Attestation: no such token");
    }

    function balanceOf(address holder) external view returns (uint256) {
        require(holder != address(0), "Attestation: zero address");
        return balances[holder];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return string.concat(baseURI, _decimal(tokenId));
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return address(0);
    }

    function isApprovedForAll(address, address) external pure returns (bool) {
        return false;
    }

    /// ERC-5192: every existing token is locked.
    function locked(uint256 tokenId) external view returns (bool) {
        ownerOf(tokenId);
        return true;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 // ERC-165
            || id == 0x80ac58cd // ERC-721
            || id == 0x5b5e139f // ERC-721 metadata
            || id == 0xb45a3c0e; // ERC-5192
    }

    // ERC-721 writes: soulbound

    function approve(address, uint256) external pure {
        revert Soulbound();
    }

    function setApprovalForAll(address, bool) external pure {
        revert Soulbound();
    }

    function transferFrom(address, address, uint256) external pure {
        revert Soulbound();
    }

    function safeTransferFrom(address, address, uint256) external pure {
        revert Soulbound();
    }

    function safeTransferFrom(address, address, uint256, bytes calldata) external pure {
        revert Soulbound();
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
