// The interface's Error shape ({ code, message, status }) and the codes the
// sandbox answers with. The interface leaves code values unspecified; these are
// the sandbox's, chosen to be stable and readable.

export type ErrorCode =
  | 'bad_request'
  | 'invalid_order_id'
  | 'invalid_pet_id'
  | 'unauthorized'
  | 'not_found'
  | 'order_not_found'
  | 'pet_not_found'
  | 'method_not_allowed'
  | 'headers_too_large'
  | 'order_already_shipped'
  | 'rate_limited'
  | 'api_key_banned'
  | 'address_banned'
  | 'internal_error'
  | 'service_unavailable';

export interface ApiError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly status: number;
}

export function apiError(status: number, code: ErrorCode, message: string): ApiError {
  return { code, message, status };
}

/** The JSON text of an Error body, field order as the interface lists them. */
export function errorBody(error: ApiError): string {
  return JSON.stringify({ code: error.code, message: error.message, status: error.status });
}
