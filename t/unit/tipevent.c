/*
 * The decoder of the tips, attestation and registry logs (lib/tipevent.c).
 * The first vectors are real eth_getLogs entries from anvil running
 * chain/contracts/TipSettlement.sol, GratitudeAttestation.sol and
 * AgentIdentityRegistry.sol driven by chain/tips.mjs (escrow, link, claim
 * with a deferred attestation, private tips, relink, refund, agent tips,
 * a push with a UTF-8 note; registration, agent wallet set, transfer).
 * The rest are built here from the same ABI to break one rule at a time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "abi.h"
#include "hex.h"
#include "keccak.h"
#include "tipevent.h"
#include "tap.h"
#include "banned.h"

struct vec {
	enum tipev_source src;
	const char *json;
};

static const struct vec real[] = {
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x02994f50064e2a82849e3"
	    "7bad6869231d8049b31e4559aac6dcccf0e6ab7de40\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c"
	    "0\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000"
	    "00000000000000000000000000000c000000000000000000000000000000000000000000000000000000000000"
	    "493e00000000000000000000000000000000000000000000000000000000000000001000000000000000000000"
	    "000000000000000000000000000000000000000000c6769746875623a616c69636500000000000000000000000"
	    "0000000000000000000000000000000000000000000000000000000000000000000000000000000177468616e6"
	    "b732070723a61636d652f7769646765742334000000000000000000\",\"blockNumber\":\"0xb\",\"blockHash\":\""
	    "0x0f6d4e27654d8c9a94ecbfb958998dfb4e51977c18349651bede799dbc90b2fa\",\"transactionHash\":\"0xe"
	    "afcc33e02eef72386fc40f0964b548c23df28aea22ead3dd3a379bfab4740fd\",\"logIndex\":\"0x2\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0xd43d353a108d85015ac24"
	    "147275f0b1ffe2af030894a0bfdcb321c677ef2b871\",\"0xa291e52d56d16da51010eab06e19b98c446ace4022"
	    "48931e975eadf1fc8180c0\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\"],\"data\":\"0x\",\"blockNumber\":\"0xc\",\"blockHash\":\"0x24efa3b01d905c58ba3b9843fee0ffe1c21bc3a"
	    "b1c9a97620f75424b312740f5\",\"transactionHash\":\"0xf39d38373f6f11403b833231662639d5d917b8c064"
	    "e99b7226255ac2ae713ded\",\"logIndex\":\"0x0\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0xdef83b2b4deb8e62de058"
	    "70ac5e8e4ce858b846360dd3648f85816c9e0b1b6d6\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c"
	    "0\",\"0x0000000000000000000000001111111111111111111111111111111111111111\"],\"data\":\"0x0000000"
	    "0000000000000000000000000000000000000000000000000000493e0\",\"blockNumber\":\"0xd\",\"blockHash\""
	    ":\"0xbcb05cc42a7438311609528ae2402dd3a133c22156fd0b9a3233f0105ab43ceb\",\"transactionHash\":\"0"
	    "xf0008408f9ad905e8eb4c2f31f274ea88d719164b8af9c6557155b52173e3a87\",\"logIndex\":\"0x1\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0xd4c04e4e2665b731ddcc1"
	    "3f18784d6f4ac60ebea23c00faf18189794201aa06a\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c0\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0xd\",\"blockHash\":\"0xbcb05cc42a7438311609528ae2402dd3a133c22156fd0b9a3233f0105ab4"
	    "3ceb\",\"transactionHash\":\"0xf0008408f9ad905e8eb4c2f31f274ea88d719164b8af9c6557155b52173e3a8"
	    "7\",\"logIndex\":\"0x5\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x420858c6430a2492382d9"
	    "29c9f5602d9ef4b8fc2ad37e1297f7d3617cfbf9174\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000002\",\"0xfecc62235165185e171e8198b4f0b838a27298f096122fa332f739ca24e911d"
	    "5\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "000000000000000000000000000000000000000000000000000000040f0d5e573f56602323a7035e8dcf35f07e"
	    "b31cd939488a044446c798b92de91ea00000000000000000000000000000000000000000000000000000000000"
	    "000076167656e743a3100000000000000000000000000000000000000000000000000\",\"blockNumber\":\"0x16"
	    "\",\"blockHash\":\"0xbdfeb75b11fdf3be50701f3bc00b99013b38bc9f67e058cfb6d70161c0767bc1\",\"transa"
	    "ctionHash\":\"0xce2810b97100cd2b216509152ddd89e769f9fe4921b40a7ef1ca48860ee45b47\",\"logIndex\""
	    ":\"0x2\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x420858c6430a2492382d9"
	    "29c9f5602d9ef4b8fc2ad37e1297f7d3617cfbf9174\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000003\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c"
	    "0\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "000000000000000000000000000000000000000000000000000000040f5f78f002475c21678c91e1238b6b647b"
	    "7d837d9c25ee1b4865a0c5e94b2823100000000000000000000000000000000000000000000000000000000000"
	    "0000c6769746875623a616c6963650000000000000000000000000000000000000000\",\"blockNumber\":\"0x1b"
	    "\",\"blockHash\":\"0x3be131d9eaea05e37f5cd1203bbf5366670681971b9de015f552e07dd4a6b3db\",\"transa"
	    "ctionHash\":\"0xd051010cdb762e1f7285dd7b2f4213af23b2cba79a65ed6124004aa55046c977\",\"logIndex\""
	    ":\"0x2\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0xd5e88b52d6ae9684bb2c2"
	    "79d1218c33d87d5898553ab1e0f79f05b400206622d\",\"0xa291e52d56d16da51010eab06e19b98c446ace4022"
	    "48931e975eadf1fc8180c0\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0x0000000000000000000000002222222222222222222222222222222222222222\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x1c\",\"blockHash\":\"0x6ee9867f5d81ac4d4d8a42c16ff53d49ee3acce5aea7dad213307839f2c"
	    "4d0db\",\"transactionHash\":\"0x189484d11e77d84f54411714d1a6c80779f60177e15c1439c15c59c755c1fc"
	    "a4\",\"logIndex\":\"0x0\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0xfd46b1cbfdc53eed33680"
	    "9d8d5dc651d222f5f4acfdb9d78b3c3157e027abd89\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000004\",\"0x1074fa7060050f3ea41f68ae613eb9e68a80238b782c3b5f8d6e58517e6355a"
	    "f\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "0000000000000000000000000000000000000000000000000000000608eb837f5cc4ffd4728b34cd1d4fcbbab2"
	    "3c51d71c762b1d1950a39b1b96bd28200000000000000000000000000000000000000000000000000000000000"
	    "000000000000000000000000000000000000000000000000000000000000000000005783a626f6200000000000"
	    "0000000000000000000000000000000000000000000\",\"blockNumber\":\"0x21\",\"blockHash\":\"0x224207a06"
	    "b7a94029b50ff73b21d9551859d476b8de537d4001ba56a1809086b\",\"transactionHash\":\"0x96989f9fd901"
	    "7e867d6a465f0be6000514d79f05ef264831dd0a0b63ad553add\",\"logIndex\":\"0x2\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x442fbe020a58b79e546d4"
	    "7e74ab18dc5ac14f22b8ccd1987e35fab5c897e5384\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000004\",\"0x1074fa7060050f3ea41f68ae613eb9e68a80238b782c3b5f8d6e58517e6355a"
	    "f\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "0000000000000000000000000000000000000000000000000000186a0\",\"blockNumber\":\"0x27\",\"blockHash"
	    "\":\"0x062dae9b07d8e2500019fd0a17b2ee64069e1f28952b5f692e352365d77e65f7\",\"transactionHash\":\""
	    "0xa02666bcd5ad85d507b21f3323fca61ef1a91bbebdd0c73d8a6dcce74fafeb1c\",\"logIndex\":\"0x1\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x107d5bf0475baf1dbf9d5"
	    "8305208dd380a37b30371b2ba70f887b824af1c71f6\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000005\",\"0x000000000000000000000000000000000000000000000000000000000000000"
	    "1\",\"0x00000000000000000000000023618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f\"],\"data\":\"0x0000000"
	    "000000000000000003333333333333333333333333333333333333333000000000000000000000000000000000"
	    "000000000000000000000000000008000000000000000000000000000000000000000000000000000000000000"
	    "1d4c00000000000000000000000000000000000000000000000000000000000000001000000000000000000000"
	    "000000000000000000000000000000000000000000268690000000000000000000000000000000000000000000"
	    "00000000000000000\",\"blockNumber\":\"0x28\",\"blockHash\":\"0x99d5e9c7df3673fe69e4f2fa81b77467990"
	    "8d9425124f6ed661bd6f6e487680d\",\"transactionHash\":\"0xdd869b72ad57e4913a649db04f1e332da7935a"
	    "d67d0c9e116065280b248bda94\",\"logIndex\":\"0x3\"}"
	},
	{ TIPSRC_TIPS,
	    "{\"address\":\"0xdc64a140aa3e981100a9beca4e685f962f0cf6c9\",\"topics\":[\"0x16e22f4b486563fb21a86"
	    "17caf12dfbcd4f4481075d8b1533851f5b84e22706f\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000006\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c"
	    "0\",\"0x00000000000000000000000014dc79964da2c08b23698b3d3cc7ca32193d9955\"],\"data\":\"0x0000000"
	    "000000000000000002222222222222222222222222222222222222222000000000000000000000000000000000"
	    "00000000000000000000000000000a000000000000000000000000000000000000000000000000000000000000"
	    "000e00000000000000000000000000000000000000000000000000000000000067932000000000000000000000"
	    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "0000000000000000c6769746875623a616c6963650000000000000000000000000000000000000000000000000"
	    "000000000000000000000000000000000000000000000000000000e636166c3a92070723a612f6223310000000"
	    "00000000000000000000000000000\",\"blockNumber\":\"0x44\",\"blockHash\":\"0xe7a3f0027bb10ec01dd7213"
	    "6946cb2af4b548a962ccf9147bc91f9d4a437fc8f\",\"transactionHash\":\"0xb56300872fe65bb9bab7b80285"
	    "745513589b83062bf7c720acbbe0e05444ab67\",\"logIndex\":\"0x1\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0xddf252ad1be2c89b69c2b"
	    "068fc378daa952ba7f163c4a11628f55a4df523b3ef\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000000\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0x0000000000000000000000000000000000000000000000000000000000000001\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0xd\",\"blockHash\":\"0xbcb05cc42a7438311609528ae2402dd3a133c22156fd0b9a3233f0105ab4"
	    "3ceb\",\"transactionHash\":\"0xf0008408f9ad905e8eb4c2f31f274ea88d719164b8af9c6557155b52173e3a8"
	    "7\",\"logIndex\":\"0x2\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x032bc66be43dbccb74877"
	    "81d168eb7bda224628a3b2c3388bdf69b532a3a1611\"],\"data\":\"0x0000000000000000000000000000000000"
	    "000000000000000000000000000001\",\"blockNumber\":\"0xd\",\"blockHash\":\"0xbcb05cc42a7438311609528"
	    "ae2402dd3a133c22156fd0b9a3233f0105ab43ceb\",\"transactionHash\":\"0xf0008408f9ad905e8eb4c2f31f"
	    "274ea88d719164b8af9c6557155b52173e3a87\",\"logIndex\":\"0x3\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x8271fc9b54b2baef3acf7"
	    "4491f1feb7c6ee9316eae3f59fa92b28164941d12a5\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c0\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0xd\",\"blockHash\":\"0xbcb05cc42a7438311609528ae2402dd3a133c22156fd0b9a3233f0105ab4"
	    "3ceb\",\"transactionHash\":\"0xf0008408f9ad905e8eb4c2f31f274ea88d719164b8af9c6557155b52173e3a8"
	    "7\",\"logIndex\":\"0x4\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0xddf252ad1be2c89b69c2b"
	    "068fc378daa952ba7f163c4a11628f55a4df523b3ef\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000000\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0x0000000000000000000000000000000000000000000000000000000000000003\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x1b\",\"blockHash\":\"0x3be131d9eaea05e37f5cd1203bbf5366670681971b9de015f552e07dd4a"
	    "6b3db\",\"transactionHash\":\"0xd051010cdb762e1f7285dd7b2f4213af23b2cba79a65ed6124004aa55046c9"
	    "77\",\"logIndex\":\"0x3\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x032bc66be43dbccb74877"
	    "81d168eb7bda224628a3b2c3388bdf69b532a3a1611\"],\"data\":\"0x0000000000000000000000000000000000"
	    "000000000000000000000000000003\",\"blockNumber\":\"0x1b\",\"blockHash\":\"0x3be131d9eaea05e37f5cd1"
	    "203bbf5366670681971b9de015f552e07dd4a6b3db\",\"transactionHash\":\"0xd051010cdb762e1f7285dd7b2"
	    "f4213af23b2cba79a65ed6124004aa55046c977\",\"logIndex\":\"0x4\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x8271fc9b54b2baef3acf7"
	    "4491f1feb7c6ee9316eae3f59fa92b28164941d12a5\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000003\",\"0x000000000000000000000000111111111111111111111111111111111111111"
	    "1\",\"0xa291e52d56d16da51010eab06e19b98c446ace402248931e975eadf1fc8180c0\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x1b\",\"blockHash\":\"0x3be131d9eaea05e37f5cd1203bbf5366670681971b9de015f552e07dd4a"
	    "6b3db\",\"transactionHash\":\"0xd051010cdb762e1f7285dd7b2f4213af23b2cba79a65ed6124004aa55046c9"
	    "77\",\"logIndex\":\"0x5\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0xddf252ad1be2c89b69c2b"
	    "068fc378daa952ba7f163c4a11628f55a4df523b3ef\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000000\",\"0x000000000000000000000000333333333333333333333333333333333333333"
	    "3\",\"0x0000000000000000000000000000000000000000000000000000000000000005\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x28\",\"blockHash\":\"0x99d5e9c7df3673fe69e4f2fa81b774679908d9425124f6ed661bd6f6e48"
	    "7680d\",\"transactionHash\":\"0xdd869b72ad57e4913a649db04f1e332da7935ad67d0c9e116065280b248bda"
	    "94\",\"logIndex\":\"0x4\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x032bc66be43dbccb74877"
	    "81d168eb7bda224628a3b2c3388bdf69b532a3a1611\"],\"data\":\"0x0000000000000000000000000000000000"
	    "000000000000000000000000000005\",\"blockNumber\":\"0x28\",\"blockHash\":\"0x99d5e9c7df3673fe69e4f2"
	    "fa81b774679908d9425124f6ed661bd6f6e487680d\",\"transactionHash\":\"0xdd869b72ad57e4913a649db04"
	    "f1e332da7935ad67d0c9e116065280b248bda94\",\"logIndex\":\"0x5\"}"
	},
	{ TIPSRC_ATTESTATION,
	    "{\"address\":\"0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9\",\"topics\":[\"0x8271fc9b54b2baef3acf7"
	    "4491f1feb7c6ee9316eae3f59fa92b28164941d12a5\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000005\",\"0x000000000000000000000000333333333333333333333333333333333333333"
	    "3\",\"0xfecc62235165185e171e8198b4f0b838a27298f096122fa332f739ca24e911d5\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x28\",\"blockHash\":\"0x99d5e9c7df3673fe69e4f2fa81b774679908d9425124f6ed661bd6f6e48"
	    "7680d\",\"transactionHash\":\"0xdd869b72ad57e4913a649db04f1e332da7935ad67d0c9e116065280b248bda"
	    "94\",\"logIndex\":\"0x6\"}"
	},
	{ TIPSRC_REGISTRY,
	    "{\"address\":\"0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0\",\"topics\":[\"0xca52e62c367d81bb2e328"
	    "eb795f7c7ba24afb478408a26c0e201d155c449bc4a\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c"
	    "8\"],\"data\":\"0x0000000000000000000000000000000000000000000000000000000000000020000000000000"
	    "000000000000000000000000000000000000000000000000001f68747470733a2f2f6167656e742e6578616d70"
	    "6c652f636172642e6a736f6e00\",\"blockNumber\":\"0xe\",\"blockHash\":\"0xf77ceb2b3278444010960a00835"
	    "82562d86d86bb87738e869f5f0912cd1786c0\",\"transactionHash\":\"0xa84b82f14281b14fc0a85fa92d4674"
	    "ea23206c8ee438eeee40794a2c8eaeaa64\",\"logIndex\":\"0x0\"}"
	},
	{ TIPSRC_REGISTRY,
	    "{\"address\":\"0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0\",\"topics\":[\"0xddf252ad1be2c89b69c2b"
	    "068fc378daa952ba7f163c4a11628f55a4df523b3ef\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000000\",\"0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c"
	    "8\",\"0x0000000000000000000000000000000000000000000000000000000000000001\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0xe\",\"blockHash\":\"0xf77ceb2b3278444010960a0083582562d86d86bb87738e869f5f0912cd17"
	    "86c0\",\"transactionHash\":\"0xa84b82f14281b14fc0a85fa92d4674ea23206c8ee438eeee40794a2c8eaeaa6"
	    "4\",\"logIndex\":\"0x1\"}"
	},
	{ TIPSRC_REGISTRY,
	    "{\"address\":\"0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0\",\"topics\":[\"0x2c149ed548c6d2993cd73"
	    "efe187df6eccabe4538091b33adbd25fafdb8a1468b\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0x2ac6109326e720d1435c0db66f7e35eda7839f52b6f1f5520a60788e132b4e3"
	    "9\"],\"data\":\"0x0000000000000000000000000000000000000000000000000000000000000040000000000000"
	    "000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000"
	    "0000000000000000000000000b6167656e7457616c6c6574000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000143c44cdddb6a900fa2b585dd299"
	    "e03d12fa4293bc000000000000000000000000\",\"blockNumber\":\"0x11\",\"blockHash\":\"0x70a984f6ea793f"
	    "9348f45743a047a3234964762314f5be0a9c9746d4278fcb7a\",\"transactionHash\":\"0x2b7eb610c01b9502d"
	    "5211bb27f66d6fbb61f3bedbff204fb0d5a8507d9706cf0\",\"logIndex\":\"0x0\"}"
	},
	{ TIPSRC_REGISTRY,
	    "{\"address\":\"0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0\",\"topics\":[\"0xddf252ad1be2c89b69c2b"
	    "068fc378daa952ba7f163c4a11628f55a4df523b3ef\",\"0x00000000000000000000000070997970c51812dc3a"
	    "010c7d01b50e0d17dc79c8\",\"0x000000000000000000000000333333333333333333333333333333333333333"
	    "3\",\"0x0000000000000000000000000000000000000000000000000000000000000001\"],\"data\":\"0x\",\"bloc"
	    "kNumber\":\"0x23\",\"blockHash\":\"0xa140025c3196791d56c06f1d2972c413042721c5f274fb8319b9419411e"
	    "c1a04\",\"transactionHash\":\"0x257c377bca7c35f5accea0d27343496d1a2d858a96f294b001a6739e5531e4"
	    "f2\",\"logIndex\":\"0x0\"}"
	},
	{ TIPSRC_REGISTRY,
	    "{\"address\":\"0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0\",\"topics\":[\"0x2c149ed548c6d2993cd73"
	    "efe187df6eccabe4538091b33adbd25fafdb8a1468b\",\"0x000000000000000000000000000000000000000000"
	    "0000000000000000000001\",\"0x2ac6109326e720d1435c0db66f7e35eda7839f52b6f1f5520a60788e132b4e3"
	    "9\"],\"data\":\"0x0000000000000000000000000000000000000000000000000000000000000040000000000000"
	    "000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000"
	    "0000000000000000000000000b6167656e7457616c6c6574000000000000000000000000000000000000000000"
	    "0000000000000000000000000000000000000000000000000000000000000000\",\"blockNumber\":\"0x23\",\"bl"
	    "ockHash\":\"0xa140025c3196791d56c06f1d2972c413042721c5f274fb8319b9419411ec1a04\",\"transaction"
	    "Hash\":\"0x257c377bca7c35f5accea0d27343496d1a2d858a96f294b001a6739e5531e4f2\",\"logIndex\":\"0x1"
	    "\"}"
	},
};

static int
decode_json(const char *text, enum tipev_source src, struct tipevent *e, char *err, size_t cap)
{
	json_object *o = json_tokener_parse(text);
	int rc;

	if (o == NULL)
		return -2;
	rc = tipev_decode(o, src, e, err, cap);
	json_object_put(o);
	return rc;
}

static char hexbuf[2 * 4096 + 3];

static const char *
hx(const uint8_t *p, size_t n)
{
	return hex_encode(p, n, hexbuf);
}

static void
topic_of(const char *sig, char out[67])
{
	uint8_t h[32];

	keccak256(sig, strlen(sig), h);
	hex_encode(h, 32, out);
}

static void
word_u64(uint64_t v, char out[67])
{
	uint8_t w[32] = { 0 };

	for (int i = 0; i < 8; i++)
		w[31 - i] = (uint8_t)(v >> (8 * i));
	hex_encode(w, 32, out);
}

/* A log of `address` with topics t[0..nt) (hex) and data (hex with 0x). */
static void
mklog(char *out, size_t cap, const char *const *t, size_t nt, const char *data, bool removed)
{
	size_t o = (size_t)snprintf(out, cap, "{\"address\":\"0x00000000000000000000000000000000000000aa\","
	    "\"blockNumber\":\"0x10\",\"blockHash\":\"0x%064x\",\"transactionHash\":\"0x%064x\","
	    "\"logIndex\":\"0x3\",\"blockTimestamp\":\"0x5\",\"removed\":%s,\"topics\":[", 1, 2,
	    removed ? "true" : "false");
	for (size_t i = 0; i < nt; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s\"%s\"", i ? "," : "", t[i]);
	snprintf(out + o, cap - o, "],\"data\":\"%s\"}", data);
}

static char logbuf[20000];

/* TipEscrowed data for (display, note, amount, attest). */
static const char *
escrow_data(const char *display, const uint8_t *note, size_t note_len, uint64_t amount)
{
	static uint8_t enc[4096];
	struct abi_arg a[4];
	size_t n;

	a[0] = abi_string(display, strlen(display));
	a[1] = abi_bytes(note, note_len);      /* same encoding as string */
	a[2] = abi_uint64(amount);
	a[3] = abi_bool(true);
	if (abi_encode(a, 4, enc, sizeof(enc), &n) < 0)
		return "0x";
	return hx(enc, n);
}

int
main(void)
{
	static const char *names[] = {
		"TipEscrowed", "Linked", "EscrowedClaimed", "DeferredAttestationMinted", "PrivateTip", "PrivateTip",
		"Relinked", "PrivateTipEscrowed", "EscrowedRefunded", "TipAgent", "Tip",
		"-", "-", "AttestationMinted", "-", "-", "AttestationMinted", "-", "-", "AttestationMinted",
		"AgentRegistered", "AgentTransfer", "AgentWalletSet", "AgentTransfer", "AgentWalletSet",
	};
	struct tipevent e;
	char err[200], seq[1024] = "", want[1024] = "", t0[67], t1[67], t2[67], t3[67];
	uint8_t topics[TIPEV_TOPICS_MAX][32];
	char tx[67];

	/* Topic sets. */
	ok(tipev_topics(TIPSRC_TIPS, topics) == 10, "the tips contract has ten events");
	ok(tipev_topics(TIPSRC_ATTESTATION, topics) == 2, "the attestation contract: minted and burned");
	ok(tipev_topics(TIPSRC_REGISTRY, topics) == 3, "the registry: Registered, Transfer, MetadataSet");
	is_str(hex_encode(topics[0], 32, tx), "0xca52e62c367d81bb2e328eb795f7c7ba24afb478408a26c0e201d155c449bc4a",
	    "Registered(uint256,string,address) topic");
	is_str(hex_encode(topics[2], 32, tx), "0x2c149ed548c6d2993cd73efe187df6eccabe4538091b33adbd25fafdb8a1468b",
	    "MetadataSet(uint256,string,string,bytes) topic");
	is_str(tipev_name(TIPEV_DEFERRED_ATTESTATION_MINTED), "DeferredAttestationMinted", "event names");
	{
		size_t good = 0, n = 0;

		for (int src = 0; src < TIPSRC__MAX; src++) {
			size_t m = tipev_topics((enum tipev_source)src, topics);

			for (size_t i = 0; i < m; i++, n++)
				for (int k = 0; k < TIPEV__MAX; k++) {
					uint8_t h[32];

					keccak256(tipev_signature((enum tipev_kind)k), strlen(tipev_signature((enum tipev_kind)k)), h);
					if (memcmp(h, topics[i], 32) == 0) {
						good++;
						break;
					}
				}
		}
		ok(n == TIPEV__MAX && good == n, "every topic0 is the keccak256 of its event's signature (%zu of %zu)",
		    good, n);
	}

	/* Real logs, in chain order. */
	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		int rc = decode_json(real[i].json, real[i].src, &e, err, sizeof(err));
		size_t l = strlen(seq);

		snprintf(seq + l, sizeof(seq) - l, "%s%s", i ? "," : "", rc == 0 ? tipev_name(e.kind) : rc == 1 ? "-" : err);
		l = strlen(want);
		snprintf(want + l, sizeof(want) - l, "%s%s", i ? "," : "", names[i]);
	}
	is_str(seq, want, "every real log decodes to its event (others of the contracts are skipped)");

	ok(decode_json(real[0].json, real[0].src, &e, err, sizeof(err)) == 0 && e.tip_id == 1 &&
	    e.mint_attestation == 1 && strcmp(e.display, "github:alice") == 0 && e.display_canonical &&
	    strcmp(e.note, "thanks pr:acme/widget#4") == 0 && e.has_usdc && !e.has_wallet,
	    "TipEscrowed: tip id, handle (canonical), note, attestation flag, no wallet");
	ok(decode_json(real[2].json, real[2].src, &e, err, sizeof(err)) == 0 && e.tip_id == 1 && e.has_wallet &&
	    !e.has_actor && e.wallet.b[0] == 0x11 && e.has_usdc,
	    "EscrowedClaimed: the indexed address is the claimer (wallet), not a tipper");
	ok(decode_json(real[4].json, real[4].src, &e, err, sizeof(err)) == 0 && strcmp(e.display, "agent:1") == 0 &&
	    e.has_commitment && !e.has_note && !e.has_usdc && e.mint_attestation == -1,
	    "PrivateTip to an agent: display agent:1, commitment, no amount, no note, flag unknown");
	ok(decode_json(real[6].json, real[6].src, &e, err, sizeof(err)) == 0 && e.actor.b[0] == 0x11 &&
	    e.wallet.b[0] == 0x22, "Relinked: old wallet as actor, new as wallet");
	ok(decode_json(real[9].json, real[9].src, &e, err, sizeof(err)) == 0 && e.tip_id == 5 &&
	    strcmp(e.agent_id, "1") == 0 && strcmp(e.display, "agent:1") == 0 && e.display_canonical && e.has_wallet,
	    "TipAgent: agent id, derived handle agent:1, resolved wallet");
	{
		uint8_t h[32];

		keccak256("agent:1", 7, h);
		ok(memcmp(h, e.handle_hash, 32) == 0, "TipAgent: handle hash = keccak256(\"agent:1\")");
	}
	ok(decode_json(real[10].json, real[10].src, &e, err, sizeof(err)) == 0 && e.tip_id == 6 &&
	    strcmp(e.note, "caf\xc3\xa9 pr:a/b#1") == 0 && e.wallet.b[0] == 0x22 && e.mint_attestation == 0,
	    "Tip: recipient, UTF-8 note kept as is");
	ok(decode_json(real[22].json, real[22].src, &e, err, sizeof(err)) == 0 && e.has_wallet &&
	    e.wallet.b[0] == 0x3c, "MetadataSet agentWallet: the wallet");
	ok(decode_json(real[24].json, real[24].src, &e, err, sizeof(err)) == 0 && !e.has_wallet,
	    "MetadataSet agentWallet with an empty value: cleared");
	ok(decode_json(real[21].json, real[21].src, &e, err, sizeof(err)) == 0 && e.has_actor &&
	    e.actor.b[0] == 0 && e.actor.b[19] == 0 && strcmp(e.agent_id, "1") == 0,
	    "the mint Transfer: from the zero address");

	/* Built logs: one broken rule each. */
	topic_of("TipEscrowed(uint256,bytes32,address,string,string,uint256,bool)", t0);
	word_u64(7, t1);
	{
		uint8_t hh[32];
		const char *tp[4] = { t0, t1, t2, t3 };
		uint8_t note[400];

		keccak256("github:Alice", 12, hh);
		hex_encode(hh, 32, t2);
		snprintf(t3, sizeof(t3), "0x%064x", 0x42);
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:Alice", (const uint8_t *)"ok", 2, 100000), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == 0 && !e.display_canonical &&
		    e.block_time == 5 && e.log_index == 3,
		    "a display handle that is not canonical decodes, but is not taken as a handle name");
		ok(decode_json(logbuf, TIPSRC_ATTESTATION, &e, err, sizeof(err)) == 1,
		    "a tips event in the attestation source is of no interest");
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:Alice", (const uint8_t *)"ok", 2, 100000), true);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1, "a removed log is refused");
		mklog(logbuf, sizeof(logbuf), tp, 3, escrow_data("github:Alice", (const uint8_t *)"ok", 2, 100000), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1, "a wrong topic count is refused: %s", err);
		memset(note, 'n', sizeof(note));
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:Alice", note, 281, 100000), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1, "a note of 281 bytes is refused");
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:Alice", note, 280, 100000), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == 0 && strlen(e.note) == 280,
		    "a note of 280 bytes is kept");
		note[0] = 0xff;
		note[1] = 0xc3;
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:Alice", note, 3, 100000), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == 0 &&
		    strcmp(e.note, "\xef\xbf\xbd\xef\xbf\xbdn") == 0, "invalid UTF-8 in a note becomes U+FFFD");
		mklog(logbuf, sizeof(logbuf), tp, 4, "0x0000", false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1, "data that does not decode is refused");
		snprintf(t1, sizeof(t1), "0x%048x%016x", 1, 0);
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:alice", (const uint8_t *)"", 0, 1), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1, "a tip id of 2^64 or more is refused");
		word_u64(7, t1);
		snprintf(t3, sizeof(t3), "0x%024x%040x", 1, 0x42);
		mklog(logbuf, sizeof(logbuf), tp, 4, escrow_data("github:alice", (const uint8_t *)"", 0, 1), false);
		ok(decode_json(logbuf, TIPSRC_TIPS, &e, err, sizeof(err)) == -1,
		    "an address topic with high bits set is refused");
	}
	{
		const char *tp[3] = { t0, t1, t2 };
		uint8_t enc[256], key[32];
		struct abi_arg a[2];
		size_t n;

		topic_of("MetadataSet(uint256,string,string,bytes)", t0);
		word_u64(9, t1);
		keccak256("agentURI", 8, key);
		hex_encode(key, 32, t2);
		a[0] = abi_string("agentURI", 8);
		a[1] = abi_bytes((const uint8_t *)"https://x", 9);
		abi_encode(a, 2, enc, sizeof(enc), &n);
		mklog(logbuf, sizeof(logbuf), tp, 3, hx(enc, n), false);
		ok(decode_json(logbuf, TIPSRC_REGISTRY, &e, err, sizeof(err)) == 1, "MetadataSet of another key is skipped");
		keccak256("agentWallet", 11, key);
		hex_encode(key, 32, t2);
		a[0] = abi_string("agentWallet", 11);
		a[1] = abi_bytes((const uint8_t *)"\x01\x02\x03", 3);
		abi_encode(a, 2, enc, sizeof(enc), &n);
		mklog(logbuf, sizeof(logbuf), tp, 3, hx(enc, n), false);
		ok(decode_json(logbuf, TIPSRC_REGISTRY, &e, err, sizeof(err)) == 0 && e.has_wallet &&
		    e.wallet.b[0] == 1 && e.wallet.b[2] == 3 && e.wallet.b[3] == 0 && strcmp(e.agent_id, "9") == 0,
		    "a short agentWallet value is its first bytes, zero-padded (as bytes20 reads it)");
	}
	return done_testing();
}
