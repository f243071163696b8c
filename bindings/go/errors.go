// SPDX-License-Identifier: Apache-2.0
package bloom

import "fmt"

// Status is a bloom_status value of the C library (negative on failure).
type Status int32

// The C library's status values (bloom.h), pinned forever.
const (
	StatusOK             Status = 0
	StatusInvalidArg     Status = -1  // a NULL pointer, a value out of range
	StatusNoMem          Status = -2  // an allocation failed
	StatusIO             Status = -3  // open/read/write/fsync/rename failed
	StatusFormat         Status = -4  // not a bloom filter, or fields that disagree
	StatusChecksum       Status = -5  // header or payload checksum mismatch
	StatusVersion        Status = -6  // written by a newer, incompatible format
	StatusUnsupported    Status = -7  // the operation does not apply to this filter
	StatusIncompatible   Status = -8  // two filters whose parameters differ
	StatusOverflow       Status = -9  // a size exceeds the library's limits
	StatusBufferTooSmall Status = -10 // the output buffer cannot hold the result
	StatusNotPresent     Status = -11 // Remove of a key that was never added
)

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
