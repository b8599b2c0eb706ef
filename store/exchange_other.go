//go:build !linux

package store

import "errors"

func exchange(a, b string) error { return errors.New("store: no atomic exchange on this system") }
