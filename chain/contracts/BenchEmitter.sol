// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title BenchEmitter (tests and benchmarks only)
/// @notice Emits many RoutedBoon events with exactly the companion contract's event signature,
///         so an indexer configured with this contract's address decodes them the same way.
///         No tokens move: the events are synthetic. Everything is derived deterministically
///         from (routeSeed, global index), so the same arguments give the same events.
///
///         For global index g = offset + i (i < n):
///           h            = keccak256(abi.encode(routeSeed, g))
///           routeId      = keccak256(abi.encode(routeSeed, "route", g % routes))
///           tipper       = address(keccak256(abi.encode(routeSeed, "tipper", g % TIPPERS)))
///           contextRef   = keccak256(abi.encode(routeSeed, "context", g))
///           endpointPayTo= address(keccak256(abi.encode(routeId, "payTo")))   (one per route)
///           endpointUsdc = 1000 + h % 999001               (0.001 .. 1.000 USDC)
///           network row  = funded when h's bits 128.. % 4 == 0: NETWORK_PAY_TO, endpointUsdc / 10 + 1
contract BenchEmitter {
    uint256 public constant BURN_AMOUNT = 100_000e18;
    uint256 public constant TIPPERS = 200;
    address public constant NETWORK_PAY_TO = 0x00000000000000000000000000000000000B0A7e;

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

    /// @param n       number of events to emit in this call
    /// @param routeSeed seed for all derived values
    /// @param routes  number of distinct routeIds (0 means 50)
    /// @param offset  global index of the first event (batches pass a running offset)
    function emitMany(uint256 n, bytes32 routeSeed, uint256 routes, uint256 offset) external {
        if (routes == 0) routes = 50;
        for (uint256 i = 0; i < n; ++i) {
            uint256 g = offset + i;
            uint256 h = uint256(keccak256(abi.encode(routeSeed, g)));
            bytes32 routeId = keccak256(abi.encode(routeSeed, "route", g % routes));
            address tipper = address(uint160(uint256(keccak256(abi.encode(routeSeed, "tipper", g % TIPPERS)))));
            bytes32 contextRef = keccak256(abi.encode(routeSeed, "context", g));
            address endpointPayTo = address(uint160(uint256(keccak256(abi.encode(routeId, "payTo")))));
            uint256 endpointUsdc = 1000 + (h % 999001);
            address networkPayTo = address(0);
            uint256 networkUsdc = 0;
            if ((h >> 128) % 4 == 0) {
                networkPayTo = NETWORK_PAY_TO;
                networkUsdc = endpointUsdc / 10 + 1;
            }
            emit RoutedBoon(
                routeId, tipper, contextRef, endpointPayTo, endpointUsdc, networkPayTo, networkUsdc, BURN_AMOUNT
            );
        }
    }
}
