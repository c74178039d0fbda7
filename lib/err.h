/*
 * err.h: the one error enum of the HTTP API, mapped once to an HTTP
 * status, a snake_case code and a default one-sentence message
 * (docs/ARCHITECTURE.md, HTTP conventions). resp_fail() in http.h writes the
 * body.
 */
#ifndef WAYMARK_ERR_H
#define WAYMARK_ERR_H

enum err {
	ERR_NONE = 0,
	ERR_INVALID_REQUEST,        /* 400 generic: a field or parameter is invalid */
	ERR_INVALID_JSON,           /* 400 the body is not strict JSON */
	ERR_DUPLICATE_KEY,          /* 400 a JSON object repeats a member name */
	ERR_UNKNOWN_FIELD,          /* 400 an undeclared property or query parameter */
	ERR_MISSING_FIELD,          /* 400 a required field is absent */
	ERR_INVALID_FIELD,          /* 400 a field failed its validator */
	ERR_REVIEW_MISMATCH,        /* 400 the signed statement is not the one this request makes */
	ERR_REQUEST_MISMATCH,       /* 400 the sign-in proof's Request ID is not this request's binding */
	ERR_TWO_PAYMENTS,           /* 400 a payment on both rails (x402 and MPP) at once */
	ERR_PAYMENT_REQUIRED,       /* 402 paid endpoint without a payment (x402 or MPP) */
	ERR_INVALID_PAYMENT,        /* 402 a payment undecodable, malformed or altered */
	ERR_PAYMENT_MISMATCH,       /* 402 payment for another resource, price, payee or time */
	ERR_PAYMENT_USED,           /* 402 this (payer, nonce) was already used */
	ERR_PAYMENT_REJECTED,       /* 402 the facilitator found the payment invalid */
	ERR_SETTLEMENT_FAILED,      /* 402 the facilitator could not settle it */
	ERR_SIWX_REQUIRED,          /* 402 SIWX row without a SIGN-IN-WITH-X proof */
	ERR_SIWX_MALFORMED,         /* 402 the proof does not decode to a proof of the right shape */
	ERR_SIWX_WRONG_DOMAIN,      /* 402 the proof names another domain */
	ERR_SIWX_WRONG_URI,         /* 402 the proof is for another operation URI */
	ERR_SIWX_WRONG_CHAIN,       /* 402 the proof is for a chain other than Base */
	ERR_SIWX_WRONG_NONCE,       /* 402 the nonce was not issued by us for this operation */
	ERR_SIWX_STALE,             /* 402 the proof's own times are out of range */
	ERR_SIWX_EXPIRED,           /* 402 the challenge is older than five minutes */
	ERR_SIWX_REPLAYED,          /* 402 the challenge was already used */
	ERR_SIWX_BAD_SIGNATURE,     /* 402 the signature is not the address's */
	ERR_SIWX_WRONG_ACCOUNT,     /* 402 a valid proof by a wallet this operation does not accept */
	ERR_UNLOCK_CHALLENGE,       /* 401 an unlock nonce unknown, used, expired or for another tip */
	ERR_UNLOCK_SIGNATURE,       /* 401 an unlock signature that is not the address's */
	ERR_NOT_A_PARTICIPANT,      /* 403 the signer takes no part in the route */
	ERR_NOT_AUTHORIZED,         /* 403 a valid signer who may not unlock this private tip */
	ERR_READ_BY_SIGNATURE,      /* 403 a private answer's payment settled late: the payer reads by signature */
	ERR_NOT_THE_TIPPER,         /* 403 a boon_backed review not signed by the recognition's tipper */
	ERR_NOT_FOUND,              /* 404 no such path or resource */
	ERR_METHOD_NOT_ALLOWED,     /* 405 path exists, method does not */
	ERR_STALE_PUBLICATION,      /* 409 a publication at least as new is current */
	ERR_ALREADY_REVIEWED,       /* 409 a different review already holds this slot */
	ERR_RECEIPT_USED,           /* 409 this receipt already backs another review */
	ERR_AUTHORITY_NOT_OBSERVED, /* 409 the route has no pinned receipt authority */
	ERR_WALLET_ALREADY_LINKED,  /* 409 the wallet is already active in a profile */
	ERR_PROFILE_FULL,           /* 409 the profile has its 8 active wallets */
	ERR_LINK_INTENT_INVALID,    /* 409 a link intent expired, changed, or its policy changed */
	ERR_CONTROLLER_ROTATION,    /* 409 the controller cannot be revoked as a wallet link */
	ERR_ACTIVITY_CONFLICT,      /* 409 this evidence is already another fact of the profile */
	ERR_PREVIEW_STALE,          /* 409 the discovery preview digest is not the current one */
	ERR_MEMBER_CONSENT_MISSING, /* 409 an active member consented only to the private policy */
	ERR_BLOB_CONFLICT,          /* 409 another blob is stored under this commitment */
	ERR_DISCLOSURE_WITHDRAWN,   /* 409 the tipper withdrew this disclosure: final */
	ERR_GONE,                   /* 410 retired endpoint */
	ERR_BODY_TOO_LARGE,         /* 413 */
	ERR_UNSUPPORTED_MEDIA_TYPE, /* 415 */
	ERR_EVIDENCE_UNVERIFIED,    /* 422 evidence failed cryptographic or binding verification */
	ERR_RATE_LIMITED,           /* 429 */
	ERR_INTERNAL,               /* 500 */
	ERR_DATABASE_UNAVAILABLE,   /* 503 */
	ERR_DATABASE_NOT_PRIMARY,   /* 503 the Galera nodes this host reaches left the primary component */
	ERR_PAYMENT_UNAVAILABLE,    /* 503 the facilitator is unreachable or failing */
	ERR_PAYMENT_IN_PROGRESS,    /* 503 the identical payment is held by a request in progress */
	ERR_SIGNATURE_UNAVAILABLE,  /* 503 a contract-wallet signature needs the RPC, which cannot answer */
	ERR_CHAIN_UNAVAILABLE,      /* 503 evidence needs the chain RPC, which cannot answer */
	ERR_PRIVATE_TIPS_UNAVAILABLE, /* 503 private tips are not configured here */
	ERR__MAX
};

struct err_info {
	int status;
	const char *code;
	const char *message;
};

/* The row for e (ERR_INTERNAL's row for out-of-range values). */
const struct err_info *err_info(enum err e);

/* Reason phrase for an HTTP status ("OK", "Not Found", ...). */
const char *err_reason_phrase(int status);

#endif
