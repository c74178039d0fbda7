// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC1271Signer {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @title BoonToken
/// @notice Local-chain stand-in for the $BOON service token: ERC-20, 18 decimals, EIP-2612
///         permit (domain name "Boon", version "1"), the real token's supply minted to the
///         deployer, and an open mint for tests. Burns are transfers to 0x…dEaD.
contract BoonToken {
    string public constant name = "Boon";
    string public constant symbol = "BOON";
    string public constant version = "1";
    uint8 public constant decimals = 18;
    uint256 public constant INITIAL_SUPPLY = 100_000_000_000e18;

    bytes32 private constant _DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    uint256 private constant _HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() {
        _mint(msg.sender, INITIAL_SUPPLY);
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(_DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
        );
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(value <= allowed, "BOON: insufficient allowance");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    /// @notice TEST ONLY: anyone may mint.
    function mint(address to, uint256 amount) external returns (bool) {
        _mint(to, amount);
        return true;
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        require(block.timestamp <= deadline, "BOON: permit expired");
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonces[owner]++, deadline));
        bytes32 digest = keccak256(abi.encodePacked(hex"1901", DOMAIN_SEPARATOR(), structHash));
        require(_validSigner(owner, digest, v, r, s), "BOON: invalid permit signature");
        _approve(owner, spender, value);
    }

    function _validSigner(address owner, bytes32 digest, uint8 v, bytes32 r, bytes32 s)
        internal
        view
        returns (bool)
    {
        if (owner.code.length != 0) {
            (bool ok, bytes memory ret) = owner.staticcall(
                abi.encodeWithSelector(IERC1271Signer.isValidSignature.selector, digest, abi.encodePacked(r, s, v))
            );
            return ok && ret.length >= 32 && abi.decode(ret, (bytes32)) == bytes32(bytes4(0x1626ba7e));
        }
        if (uint256(s) > _HALF_N) return false;
        address recovered = ecrecover(digest, v, r, s);
        return recovered != address(0) && recovered == owner;
    }

    function _mint(address to, uint256 amount) internal {
        require(to != address(0), "BOON: mint to zero address");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "BOON: transfer to zero address");
        uint256 bal = balanceOf[from];
        require(value <= bal, "BOON: insufficient balance");
        unchecked {
            balanceOf[from] = bal - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _approve(address owner, address spender, uint256 value) internal {
        require(spender != address(0), "BOON: approve to zero address");
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }
}
