package cardreader

import (
	"errors"
	"testing"
)

func TestAppletAnswersAreChecked(t *testing.T) {
	if _, err := CheckGetID([]byte("4000123456789010\x90\x00")); err != nil {
		t.Fatal(err)
	}
	var bad *BadResponseError
	for name, err := range map[string]error{
		"select 6A82":   CheckSelect([]byte{0x6A, 0x82}),
		"select empty":  CheckSelect(nil),
		"id letters":    second(CheckGetID([]byte("40001234567890AB\x90\x00"))),
		"id 6985":       second(CheckGetID([]byte{0x69, 0x85})),
		"auth short":    second(CheckAuthenticate(append(make([]byte, 31), 0x90, 0))),
		"auth one byte": second(CheckAuthenticate([]byte{0x90})),
		"auth refused":  second(CheckAuthenticate([]byte{0x69, 0x82})),
	} {
		if !errors.As(err, &bad) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
