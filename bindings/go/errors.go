// SPDX-License-Identifier: Apache-2.0
package bloom

import "fmt"

// Status is a bloom_status value of the C library (negative on failure);
// the constants (StatusOK, ...) are generated from bloom.h.
type Status int32

// String is the library's description of the status ("invalid argument", ...).
func (s Status) String() string { return strerror(s) }

// Error is a failed call: the C status, the library's message, and the
// operation ("create", "load", ...).
type Error struct {
	Status  Status
	Message string
	Op      string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("bloom: %s: %s", e.Op, e.Status)
	}
	return fmt.Sprintf("bloom: %s: %s: %s", e.Op, e.Status, e.Message)
}

// Is makes errors.Is(err, ErrX) true when err is an *Error of ErrX's status.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status && t.Message == "" && t.Op == ""
}

// Values for errors.Is, one per status.
var (
	ErrInvalidArg     = &Error{Status: StatusInvalidArg}
	ErrNoMem          = &Error{Status: StatusNoMem}
	ErrIO             = &Error{Status: StatusIO}
	ErrFormat         = &Error{Status: StatusFormat}
	ErrChecksum       = &Error{Status: StatusChecksum}
	ErrVersion        = &Error{Status: StatusVersion}
	ErrUnsupported    = &Error{Status: StatusUnsupported}
	ErrIncompatible   = &Error{Status: StatusIncompatible}
	ErrOverflow       = &Error{Status: StatusOverflow}
	ErrBufferTooSmall = &Error{Status: StatusBufferTooSmall}
	ErrNotPresent     = &Error{Status: StatusNotPresent}
)

// ErrClosed is returned by every method of a Filter after Close. It is an
// *Error with StatusInvalidArg, so errors.Is(err, ErrInvalidArg) holds too.
var ErrClosed = &Error{Status: StatusInvalidArg, Op: "use", Message: "the filter is closed"}
