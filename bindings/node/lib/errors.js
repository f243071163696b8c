// SPDX-License-Identifier: Apache-2.0
'use strict';
const native = require('./native');

// The C library's status codes (include/bloom/bloom.h), pinned forever.
const { Status } = require('./constants');

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
