/*
 * brand.h: the one definition of the brand word (docs/PROTOCOL.md, Brand
 * word). Every identifier, path,
 * JSON member name, evidence lane, policy string, token symbol, event name
 * and EIP-712 domain name derived from the brand is built from these
 * macros; tools/lint refuses the word as a literal anywhere else (the
 * database's table and column names, fixed by the migrations in sql/,
 * excepted).
 */
#ifndef WAYMARK_BRAND_H
#define WAYMARK_BRAND_H

#define BRAND_LOWER "boon"
#define BRAND_CAPITAL "Boon"
#define BRAND_UPPER "BOON"                    /* the service token's symbol */
#define BRAND_LANE BRAND_LOWER "_backed"      /* the lane of reviews citing a routed recognition */

#endif
