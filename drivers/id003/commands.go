package id003

// DenomSet is a set of note escrow codes: bit i stands for code 0x61+i
// (denominations 1–16). In this API a set bit means ENABLED; the wire sense of
// ENABLE/DISABLE DENOMINATION is the opposite (1 = disabled) and is handled
// by EnableDenominations.
type DenomSet uint16

// AllDenoms enables every note code.
const AllDenoms DenomSet = 0xFFFF

// Denoms makes a set from escrow codes 0x61–0x70; other codes are ignored.
func Denoms(codes ...byte) DenomSet {
	var s DenomSet
	for _, c := range codes {
		if c >= 0x61 && c <= 0x70 {
			s |= 1 << (c - 0x61)
		}
	}
	return s
}

// Has reports whether the set holds escrow code c.
func (s DenomSet) Has(c byte) bool { return c >= 0x61 && c <= 0x70 && s&(1<<(c-0x61)) != 0 }

// wire: first byte carries codes 0x61–0x68 (bits 0–7), second 0x69–0x70.
func (s DenomSet) bytes() []byte { return []byte{byte(s), byte(s >> 8)} }

// Command returns a command frame with no data (STATUS REQUEST, RESET,
// STACK-1/2, RETURN, HOLD, WAIT, ACK, the read-back and information requests).
func Command(code byte) Frame { return Frame{Code: code} }

// EnableDenominations is C0 with the notes in enabled accepted and the others disabled.
func EnableDenominations(enabled DenomSet) Frame {
	return Frame{Code: CmdEnableDenom, Data: (^enabled).bytes()}
}

// Security is C1: the notes in high are checked at high security.
func Security(high DenomSet) Frame { return Frame{Code: CmdSecurity, Data: high.bytes()} }

// CommunicationMode is C2; 0 is polling, the only mode this driver uses.
func CommunicationMode(mode byte) Frame {
	return Frame{Code: CmdCommunicationMode, Data: []byte{mode}}
}

// Inhibit is C3: true stops acceptance (status DISABLE), false accepts.
func Inhibit(on bool) Frame {
	var b byte
	if on {
		b = 1
	}
	return Frame{Code: CmdInhibit, Data: []byte{b}}
}

// Direction is C4; set bits inhibit insertion directions (bit0 face-up A,
// bit1 face-up B, bit2 face-down A, bit3 face-down B).
func Direction(inhibited byte) Frame { return Frame{Code: CmdDirection, Data: []byte{inhibited}} }

// OptionalFunction is C5 with its two bytes.
func OptionalFunction(a, b byte) Frame { return Frame{Code: CmdOptionalFunction, Data: []byte{a, b}} }

// Barcode types and lengths for BarcodeFunction.
const (
	BarcodeInterleaved2of5 byte = 0x01
	BarcodeLength18        byte = 0x12
	BarcodeMultiLength     byte = 0xFF
)

// BarcodeFunction is C6: barcode type and length in characters.
func BarcodeFunction(kind, length byte) Frame {
	return Frame{Code: CmdBarcodeFunction, Data: []byte{kind, length}}
}

// BarInhibit is C7. The unused high bits are sent set, as Monaco does (FC =
// notes and tickets enabled); bit0 inhibits notes and bit1 tickets.
func BarInhibit(notesInhibited, ticketsInhibited bool) Frame {
	b := byte(0xFC)
	if notesInhibited {
		b |= 0x01
	}
	if ticketsInhibited {
		b |= 0x02
	}
	return Frame{Code: CmdBarInhibit, Data: []byte{b}}
}

// ProgramSignature is DC with the regulator's seed.
func ProgramSignature(seed []byte) Frame { return Frame{Code: CmdProgramSignature, Data: seed} }

// ReadSetting reads back the setting of command c (C0–C7) with 80–87.
func ReadSetting(c byte) Frame { return Frame{Code: c - CmdEnableDenom + CmdReadSetting} }
