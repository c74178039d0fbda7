// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SmartWallet (test only)
/// @notice A minimal ERC-1271 contract wallet for waymark's tests: one owner EOA; a signature is
///         valid for the wallet when it is the owner's 65-byte ECDSA signature (low s) over the
///         exact hash asked about. execute() lets the owner act as the wallet (send a routed
///         recognition, approve tokens).
contract SmartWallet {
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    uint256 private constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER) return 0xffffffff;
        address got = ecrecover(hash, v, r, s);
        return got != address(0) && got == owner ? ERC1271_MAGIC : bytes4(0xffffffff);
    }

    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "SmartWallet: not the owner");
        (bool ok, bytes memory ret) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        return ret;
    }
}

/// @title SmartWalletFactory (test only)
/// @notice CREATE2 factory for SmartWallet, so a wallet's address is known before it exists
///         (EIP-6492 counterfactual signatures carry createWallet's calldata).
contract SmartWalletFactory {
    event WalletCreated(address indexed wallet, address indexed owner, bytes32 salt);

    /// Deploys the wallet of (owner, salt), or returns it when it already exists.
    function createWallet(address owner, bytes32 salt) external returns (address wallet) {
        wallet = walletAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        SmartWallet w = new SmartWallet{salt: salt}(owner);
        require(address(w) == wallet, "SmartWalletFactory: address mismatch");
        emit WalletCreated(wallet, owner, salt);
    }

    function walletAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(SmartWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, code)))));
    }
}
