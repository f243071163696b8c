// SPDX-License-Identifier: Apache-2.0
'use strict';
const native = require('./native');

/**
 * The C library's status codes (include/bloom/bloom.h), pinned forever.
 * @readonly
 * @enum {number}
 */
const Status = Object.freeze({
  OK: 0,
  INVALID_ARG: -1,
  NOMEM: -2,
  IO: -3,
  FORMAT: -4,
  CHECKSUM: -5,
  VERSION: -6,
  UNSUPPORTED: -7,
  INCOMPATIBLE: -8,
  OVERFLOW: -9,
  BUFFER_TOO_SMALL: -10,
  NOT_PRESENT: -11,
});

const STATUS_NAMES = new Map(Object.entries(Status).map(([name, code]) => [code, name]));

/**
 * A call into the C library failed. `status` is the bloom_status (a negative
 * {@link Status} value), `code` its name ("IO", "CHECKSUM", ...) and
 * `message` "operation: detail" from bloom_last_error().
 */
class BloomError extends Error {
  /**
   * @param {number} status a negative bloom_status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.name = 'BloomError';
    /** @type {number} */
    this.status = status;
    /** @type {string} */
    this.code = STATUS_NAMES.get(status) || 'UNKNOWN';
    /** @type {string} the library's short description of the status */
    this.description = native.strerror(status);
  }
}

native.setErrorClass(BloomError);

module.exports = { BloomError, Status };
