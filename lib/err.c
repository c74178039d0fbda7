#include <stddef.h>

#include "err.h"
#include "banned.h"

static const struct err_info errors[ERR__MAX] = {
	[ERR_NONE] = { 200, "ok", "OK." },
	[ERR_INVALID_REQUEST] = { 400, "invalid_request", "The request is invalid." },
	[ERR_INVALID_JSON] = { 400, "invalid_json", "The request body is not valid JSON." },
	[ERR_DUPLICATE_KEY] = { 400, "duplicate_key", "A JSON object repeats a member name." },
	[ERR_UNKNOWN_FIELD] = { 400, "unknown_field", "The request has a field this endpoint does not accept." },
	[ERR_MISSING_FIELD] = { 400, "missing_field", "A required field is missing." },
	[ERR_INVALID_FIELD] = { 400, "invalid_field", "A field is invalid." },
	[ERR_REVIEW_MISMATCH] = { 400, "review_mismatch", "The sign-in proof's Request ID is not the digest of this review's statement; sign the fresh challenge for this very review." },
	[ERR_REQUEST_MISMATCH] = { 400, "request_mismatch", "The sign-in proof's Request ID does not bind this request's body; sign the fresh challenge for this very request." },
	[ERR_TWO_PAYMENTS] = { 400, "two_payments", "Send one payment: PAYMENT-SIGNATURE (x402) or Authorization: Payment (MPP), not both." },
	[ERR_PAYMENT_REQUIRED] = { 402, "payment_required", "This endpoint is paid: answer the PAYMENT-REQUIRED challenge (x402) with PAYMENT-SIGNATURE, or the WWW-Authenticate Payment challenge (MPP) with Authorization: Payment." },
	[ERR_INVALID_PAYMENT] = { 402, "invalid_payment", "The payment is not a valid x402 v2 payment or MPP credential." },
	[ERR_PAYMENT_MISMATCH] = { 402, "payment_mismatch", "The payment was made for another resource or price." },
	[ERR_PAYMENT_USED] = { 402, "payment_already_used", "This payment was already used; sign a new one." },
	[ERR_PAYMENT_REJECTED] = { 402, "payment_rejected", "The facilitator found the payment invalid." },
	[ERR_SETTLEMENT_FAILED] = { 402, "settlement_failed", "The payment could not be settled; nothing was charged." },
	[ERR_SIWX_REQUIRED] = { 402, "siwx_required", "This endpoint needs a wallet sign-in: sign the sign-in-with-x challenge in the PAYMENT-REQUIRED header and retry with SIGN-IN-WITH-X." },
	[ERR_SIWX_MALFORMED] = { 402, "siwx_malformed", "The SIGN-IN-WITH-X header is not a valid sign-in proof; sign the fresh challenge." },
	[ERR_SIWX_WRONG_DOMAIN] = { 402, "siwx_wrong_domain", "The sign-in proof is for another domain; sign the fresh challenge." },
	[ERR_SIWX_WRONG_URI] = { 402, "siwx_wrong_uri", "The sign-in proof is for another operation; sign the fresh challenge for this URI." },
	[ERR_SIWX_WRONG_CHAIN] = { 402, "siwx_wrong_chain", "The sign-in proof is for another chain; only eip155:8453 (Base) is accepted." },
	[ERR_SIWX_WRONG_NONCE] = { 402, "siwx_wrong_nonce", "The sign-in proof's nonce was not issued for this operation; sign the fresh challenge." },
	[ERR_SIWX_STALE] = { 402, "siwx_stale", "The sign-in proof's times are out of range; sign the fresh challenge." },
	[ERR_SIWX_EXPIRED] = { 402, "siwx_expired", "The sign-in challenge expired (five minutes); sign the fresh challenge." },
	[ERR_SIWX_REPLAYED] = { 402, "siwx_replayed", "This sign-in proof was already used; each challenge is good for one request. Sign the fresh challenge." },
	[ERR_SIWX_BAD_SIGNATURE] = { 402, "siwx_bad_signature", "The sign-in proof's signature is not the wallet's; sign the fresh challenge." },
	[ERR_SIWX_WRONG_ACCOUNT] = { 402, "siwx_wrong_account", "The sign-in proof is valid, but this operation needs another wallet's signature." },
	[ERR_UNLOCK_CHALLENGE] = { 401, "unlock_challenge_invalid", "The unlock nonce is unknown, used, expired or for another tip; ask for a new challenge." },
	[ERR_UNLOCK_SIGNATURE] = { 401, "unlock_signature_invalid", "The unlock signature is not the given address's." },
	[ERR_READ_BY_SIGNATURE] = { 403, "read_by_signature", "This payment settled, and what it bought is "
	    "private: a payment header shown again never carries it. The paying wallet reads it free by its "
	    "own signature (a private tip: POST /tips/{tipId}/auth-challenge, then the signed GET)." },
	[ERR_NOT_AUTHORIZED] = { 403, "not_authorized_to_unlock", "Only the tipper or the tip's recipient may unlock this private tip for free; the nonce stays valid for them." },
	[ERR_NOT_A_PARTICIPANT] = { 403, "not_a_participant", "The signer is not a participant of this route." },
	[ERR_NOT_THE_TIPPER] = { 403, "not_the_tipper", "The review is not signed by the tipper of the cited routed recognition." },
	[ERR_NOT_FOUND] = { 404, "not_found", "No such resource." },
	[ERR_METHOD_NOT_ALLOWED] = { 405, "method_not_allowed", "This method is not allowed on this path." },
	[ERR_STALE_PUBLICATION] = { 409, "stale_publication", "A publication at least as new is already current." },
	[ERR_ALREADY_REVIEWED] = { 409, "already_reviewed", "A different review already exists for this; reviews are immutable." },
	[ERR_RECEIPT_USED] = { 409, "receipt_already_used", "This receipt already backs another review; each receipt can be used once." },
	[ERR_AUTHORITY_NOT_OBSERVED] = { 409, "receipt_authority_not_observed", "Receipt-verified reviews are unavailable for this route: no official receipt authority (signer and payTo) has been observed for it." },
	[ERR_WALLET_ALREADY_LINKED] = { 409, "wallet_already_linked", "This wallet is already an active wallet of a profile; a wallet can be active in only one profile." },
	[ERR_PROFILE_FULL] = { 409, "profile_full", "This profile already has 8 active wallets, the controller included; revoke one first." },
	[ERR_LINK_INTENT_INVALID] = { 409, "link_intent_invalid", "This wallet-link intent can no longer be confirmed (expired, a different intent digest, or the profile's policy changed); ask the controller for a new link." },
	[ERR_PREVIEW_STALE] = { 409, "preview_stale", "previewDigest is not the digest of this profile's current discovery preview; read the preview again and confirm what it shows." },
	[ERR_MEMBER_CONSENT_MISSING] = { 409, "member_consent_missing", "A member wallet was linked while the profile was private and consented only to the private policy; revoke it, publish, then link it again." },
	[ERR_CONTROLLER_ROTATION] = { 409, "controller_rotation_required", "The controller cannot be removed as a wallet link; the profile needs a controller rotation." },
	[ERR_ACTIVITY_CONFLICT] = { 409, "activity_conflict", "This evidence is already a different fact of this profile; facts are immutable." },
	[ERR_EVIDENCE_UNVERIFIED] = { 422, "evidence_unverified", "The receipt evidence failed verification." },
	[ERR_BLOB_CONFLICT] = { 409, "blob_conflict", "A different blob is already stored under this commitment." },
	[ERR_DISCLOSURE_WITHDRAWN] = { 409, "disclosure_withdrawn", "The tipper withdrew this disclosure; a withdrawal is final." },
	[ERR_GONE] = { 410, "gone", "This endpoint has been retired." },
	[ERR_BODY_TOO_LARGE] = { 413, "body_too_large", "The request body is too large for this endpoint." },
	[ERR_UNSUPPORTED_MEDIA_TYPE] = { 415, "unsupported_media_type", "The request body must be application/json." },
	[ERR_RATE_LIMITED] = { 429, "rate_limited", "Too many requests; slow down." },
	[ERR_INTERNAL] = { 500, "internal_error", "The service failed to answer this request." },
	[ERR_DATABASE_UNAVAILABLE] = { 503, "database_unavailable", "The database is unavailable; try again shortly." },
	[ERR_DATABASE_NOT_PRIMARY] = { 503, "database_not_primary", "The database nodes this host reaches "
	    "are not Synced in the cluster's primary component; try again shortly." },
	[ERR_PAYMENT_UNAVAILABLE] = { 503, "payment_unavailable", "Payments cannot be processed right now; nothing was charged. Try again shortly." },
	[ERR_PAYMENT_IN_PROGRESS] = { 503, "payment_in_progress", "This very payment is held by another "
	    "request that is still being served, or that stopped too recently to tell; nothing more was "
	    "charged. Send the identical request again after Retry-After seconds: it then gets this "
	    "payment's outcome." },
	[ERR_PRIVATE_TIPS_UNAVAILABLE] = { 503, "private_tips_unavailable", "Private tips are not available on this service right now." },
	[ERR_CHAIN_UNAVAILABLE] = { 503, "chain_unavailable", "The chain cannot be reached to verify this evidence right now; nothing was stored. Try again shortly." },
	[ERR_SIGNATURE_UNAVAILABLE] = { 503, "signature_check_unavailable", "This signature can only be checked through the chain (a contract wallet), and the chain cannot be reached right now; nothing was published or charged. Try again shortly." },
};

const struct err_info *
err_info(enum err e)
{
	if ((unsigned)e >= ERR__MAX)
		return &errors[ERR_INTERNAL];
	return &errors[e];
}

const char *
err_reason_phrase(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 402: return "Payment Required";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	default: return "Unknown";
	}
}
