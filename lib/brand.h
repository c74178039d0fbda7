/*
 * brand.h: the one definition of the brand word; docs/PROTOCOL.md, Brand word.
 * Every identifier, path, header name, policy string and EIP-712 domain
 * name derived from the brand is built from these two macros.
 */
#ifndef WAYMARK_BRAND_H
#define WAYMARK_BRAND_H

#define BRAND_LOWER "boon"
#define BRAND_CAPITAL "Boon"

#endif
