// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Minimal {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title RoutedBoonCompanion
/// @notice Local-chain implementation of the x402 routed-boon companion contract with the
///         calldata ABI of the deployed one and the RoutedBoon event fixed by waymark's design.
///         A recognition pays USDC gratuities from the tipper to the endpoint's payTo and/or a
///         network payTo, burns BURN_AMOUNT BOON (transfer to 0x…dEaD), and emits RoutedBoon.
///         The tipper must have approved this contract on both tokens beforehand.
contract RoutedBoonCompanion {
    uint256 public constant BURN_AMOUNT = 100_000e18;
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    address public immutable USDC;
    address public immutable BOON;

    event RoutedBoon(
        bytes32 indexed routeId,
        address indexed tipper,
        bytes32 indexed contextRef,
        address endpointPayTo,
        uint256 endpointGratuityUsdc,
        address networkPayTo,
        uint256 networkGratuityUsdc,
        uint256 boonBurned
    );

    constructor(address usdc, address boon) {
        require(usdc != address(0) && boon != address(0), "RoutedBoon: zero token address");
        require(usdc != boon, "RoutedBoon: USDC and BOON are the same");
        USDC = usdc;
        BOON = boon;
    }

    function sendRoutedBoon(
        bytes32 routeId,
        bytes32 contextRef,
        address endpointPayTo,
        uint256 endpointGratuityUsdc,
        address networkPayTo,
        uint256 networkGratuityUsdc
    ) external {
        require(routeId != bytes32(0), "RoutedBoon: routeId is zero");
        require(endpointGratuityUsdc != 0 || networkGratuityUsdc != 0, "RoutedBoon: no gratuity");

        _checkRow(endpointPayTo, endpointGratuityUsdc, true);
        _checkRow(networkPayTo, networkGratuityUsdc, false);
        if (endpointGratuityUsdc != 0 && networkGratuityUsdc != 0) {
            require(endpointPayTo != networkPayTo, "RoutedBoon: endpoint and network payTo are the same");
        }

        if (endpointGratuityUsdc != 0) {
            require(
                IERC20Minimal(USDC).transferFrom(msg.sender, endpointPayTo, endpointGratuityUsdc),
                "RoutedBoon: USDC transfer failed"
            );
        }
        if (networkGratuityUsdc != 0) {
            require(
                IERC20Minimal(USDC).transferFrom(msg.sender, networkPayTo, networkGratuityUsdc),
                "RoutedBoon: USDC transfer failed"
            );
        }
        require(
            IERC20Minimal(BOON).transferFrom(msg.sender, BURN_ADDRESS, BURN_AMOUNT), "RoutedBoon: BOON burn failed"
        );

        emit RoutedBoon(
            routeId,
            msg.sender,
            contextRef,
            endpointPayTo,
            endpointGratuityUsdc,
            networkPayTo,
            networkGratuityUsdc,
            BURN_AMOUNT
        );
    }

    function _checkRow(address payTo, uint256 gratuity, bool endpoint) internal view {
        if (gratuity == 0) {
            require(
                payTo == address(0),
                endpoint ? "RoutedBoon: endpoint payTo set without gratuity" : "RoutedBoon: network payTo set without gratuity"
            );
            return;
        }
        require(
            payTo != address(0),
            endpoint ? "RoutedBoon: endpoint payTo is zero" : "RoutedBoon: network payTo is zero"
        );
        require(payTo != msg.sender, "RoutedBoon: tipper cannot be a recipient");
        require(
            payTo != address(this) && payTo != USDC && payTo != BOON && payTo != BURN_ADDRESS,
            "RoutedBoon: reserved recipient"
        );
    }
}
