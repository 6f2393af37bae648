package id003

import (
	"errors"
	"fmt"
)

// Errors of the status and reply parsers.
var (
	ErrUnknownStatus = errors.New("id003: unknown status code")
	ErrStatusData    = errors.New("id003: bad status data")
	ErrCurrencyTable = errors.New("id003: bad currency assignment table")
)

// DocKind tells a note from a ticket.
type DocKind int

const (
	// DocUnknown is a document the driver did not see reach escrow (found
	// in VEND VALID after a restart, or present at power-up).
	DocUnknown DocKind = iota
	DocNote
	DocTicket
)

func (k DocKind) String() string {
	switch k {
	case DocNote:
		return "note"
	case DocTicket:
		return "ticket"
	}
	return "unknown document"
}

// Ticket barcode lengths accepted in ESCROW: Monaco accepts 6–18 digits,
// 24-character barcodes exist with optional function 0x08.
const (
	MinTicketDigits = 6
	MaxTicketDigits = 24
)

// Document is what sits in escrow: a note (escrow code, and its value from
// the currency table when known) or a ticket (its barcode digits).
type Document struct {
	Kind   DocKind
	Code   byte         // escrow code of a note (0x61…)
	Denom  Denomination // value of a note from the currency table; zero if unknown
	Ticket string       // barcode digits of a ticket
}

func (d Document) String() string {
	switch d.Kind {
	case DocNote:
		if d.Denom.Base != 0 {
			return fmt.Sprintf("note %02X (%s)", d.Code, d.Denom)
		}
		return fmt.Sprintf("note %02X", d.Code)
	case DocTicket:
		return "ticket " + d.Ticket
	}
	return "unknown document"
}

// same reports whether two escrow reports are the same document.
func (d Document) same(o Document) bool {
	return d.Kind == o.Kind && d.Code == o.Code && d.Ticket == o.Ticket
}

// Status is one decoded acceptor status.
type Status struct {
	Code    byte
	Doc     Document    // ESCROW
	Reject  RejectCode  // REJECTING
	Failure FailureCode // FAILURE
	// VendData is the optional byte some firmware sends with VEND VALID.
	VendData []byte
	// StackedData is the byte recycler units send with STACKED (where the
	// note went: cash box or a recycle box; the values are the unit's).
	StackedData []byte
	// Ext is a recycler-extension frame (Code StExtension).
	Ext *Extension
}

// Extension is a frame of JCM's bill-recycler extension: F0, the unit
// (20), a sub-code and its data. The driver decodes and reports it; it
// moves no money. Sub-codes are the unit's and not interpreted here.
type Extension struct {
	Unit byte
	Code byte
	Data []byte
}

func (e Extension) String() string {
	if len(e.Data) == 0 {
		return fmt.Sprintf("recycler %02X: %02X", e.Unit, e.Code)
	}
	return fmt.Sprintf("recycler %02X: %02X % X", e.Unit, e.Code, e.Data)
}

// ParseExtension decodes the data of an F0 frame: the recycler unit byte
// (20), a sub-code, and whatever data follows it.
func ParseExtension(data []byte) (Extension, error) {
	if len(data) < 2 {
		return Extension{}, fmt.Errorf("%w: recycler extension needs a unit and a sub-code, got % X", ErrStatusData, data)
	}
	if data[0] != RecyclerUnit {
		return Extension{}, fmt.Errorf("%w: extension unit %02X is not the recycler (%02X)", ErrStatusData, data[0], RecyclerUnit)
	}
	return Extension{Unit: data[0], Code: data[1], Data: append([]byte(nil), data[2:]...)}, nil
}

func (s Status) String() string {
	switch s.Code {
	case StEscrow:
		return "ESCROW " + s.Doc.String()
	case StRejecting:
		return "REJECTING " + s.Reject.String()
	case StFailure:
		return "FAILURE " + s.Failure.String()
	case StExtension:
		if s.Ext != nil {
			return s.Ext.String()
		}
	case StStacked:
		if len(s.StackedData) > 0 {
			return fmt.Sprintf("STACKED % X", s.StackedData)
		}
	}
	return StatusName(s.Code)
}

// IsFault reports the error states 0x43–0x49 (reported until cleared).
func (s Status) IsFault() bool { return s.Code >= StStackerFull && s.Code <= StFailure }

// IsPowerUp reports 0x40–0x42.
func (s Status) IsPowerUp() bool { return s.Code >= StPowerUp && s.Code <= StPowerUpBillInStacker }

// ParseStatus decodes a frame received in answer to STATUS REQUEST. It checks
// that the code is a status and that the data fits it.
func ParseStatus(f Frame) (Status, error) {
	s := Status{Code: f.Code}
	if _, ok := statusNames[f.Code]; !ok || f.Code == StAck || f.Code == StInvalidCommand {
		return Status{}, fmt.Errorf("%w: %02X", ErrUnknownStatus, f.Code)
	}
	switch f.Code {
	case StEscrow:
		d, err := ParseEscrow(f.Data)
		if err != nil {
			return Status{}, err
		}
		s.Doc = d
	case StRejecting:
		if len(f.Data) != 1 {
			return Status{}, fmt.Errorf("%w: REJECTING needs 1 byte, got % X", ErrStatusData, f.Data)
		}
		s.Reject = RejectCode(f.Data[0])
	case StFailure:
		if len(f.Data) != 1 {
			return Status{}, fmt.Errorf("%w: FAILURE needs 1 byte, got % X", ErrStatusData, f.Data)
		}
		s.Failure = FailureCode(f.Data[0])
	case StVendValid:
		if len(f.Data) > 1 {
			return Status{}, fmt.Errorf("%w: VEND VALID takes at most 1 byte, got % X", ErrStatusData, f.Data)
		}
		if len(f.Data) == 1 {
			s.VendData = []byte{f.Data[0]}
		}
	case StStacked:
		if len(f.Data) > 1 {
			return Status{}, fmt.Errorf("%w: STACKED takes at most 1 byte, got % X", ErrStatusData, f.Data)
		}
		if len(f.Data) == 1 {
			s.StackedData = []byte{f.Data[0]}
		}
	case StExtension:
		e, err := ParseExtension(f.Data)
		if err != nil {
			return Status{}, err
		}
		s.Ext = &e
	default:
		if len(f.Data) != 0 {
			return Status{}, fmt.Errorf("%w: %s takes no data, got % X", ErrStatusData, StatusName(f.Code), f.Data)
		}
	}
	return s, nil
}

// ParseEscrow decodes ESCROW data: one note escrow code, or 0x6F followed by
// 6–24 ASCII digits of a ticket barcode.
func ParseEscrow(data []byte) (Document, error) {
	if len(data) == 0 {
		return Document{}, fmt.Errorf("%w: ESCROW without data", ErrStatusData)
	}
	if data[0] != TicketEscrowCode {
		if len(data) != 1 {
			return Document{}, fmt.Errorf("%w: note escrow takes 1 byte, got % X", ErrStatusData, data)
		}
		if data[0] < 0x61 || data[0] > 0x70 {
			return Document{}, fmt.Errorf("%w: note escrow code %02X outside 61–70", ErrStatusData, data[0])
		}
		return Document{Kind: DocNote, Code: data[0]}, nil
	}
	digits := data[1:]
	if len(digits) < MinTicketDigits || len(digits) > MaxTicketDigits {
		return Document{}, fmt.Errorf("%w: ticket has %d digits, want %d–%d", ErrStatusData, len(digits), MinTicketDigits, MaxTicketDigits)
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return Document{}, fmt.Errorf("%w: ticket barcode % X is not all ASCII digits", ErrStatusData, digits)
		}
	}
	return Document{Kind: DocTicket, Code: TicketEscrowCode, Ticket: string(digits)}, nil
}

// EscrowData encodes a document as ESCROW data (used by tests and tools).
func EscrowData(d Document) []byte {
	if d.Kind == DocTicket {
		return append([]byte{TicketEscrowCode}, d.Ticket...)
	}
	return []byte{d.Code}
}

// Denomination is one row of the currency assignment table: the escrow code
// and its value Base × 10^Exponent in whole currency units of Country.
type Denomination struct {
	Code     byte
	Country  byte // e.g. 0xE0 for EUR
	Base     byte
	Exponent byte
}

func (d Denomination) String() string {
	return fmt.Sprintf("%d×10^%d country %02X", d.Base, d.Exponent, d.Country)
}

// maxExponent keeps Base×10^Exponent×100 inside int64 minor units.
const maxExponent = 14

// Minor returns the value in minor units for a currency with the given
// number of decimals (2 for EUR cents, 2 for CZK haléře, 0 for whole crowns).
func (d Denomination) Minor(decimals int) int64 {
	v := int64(d.Base)
	for range int(d.Exponent) + decimals {
		v *= 10
	}
	return v
}

// CurrencyTable maps escrow codes to values.
type CurrencyTable map[byte]Denomination

// ParseCurrencyTable decodes the reply to CURRENCY ASSIGN REQUEST (8A):
// blocks of escrow code, country, base, exponent. Unassigned codes (base 0)
// are left out.
func ParseCurrencyTable(data []byte) (CurrencyTable, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not a whole number of 4-byte blocks", ErrCurrencyTable, len(data))
	}
	t := CurrencyTable{}
	for i := 0; i < len(data); i += 4 {
		d := Denomination{Code: data[i], Country: data[i+1], Base: data[i+2], Exponent: data[i+3]}
		if d.Exponent > maxExponent {
			return nil, fmt.Errorf("%w: code %02X exponent %d > %d", ErrCurrencyTable, d.Code, d.Exponent, maxExponent)
		}
		if _, dup := t[d.Code]; dup {
			return nil, fmt.Errorf("%w: code %02X twice", ErrCurrencyTable, d.Code)
		}
		if d.Base == 0 {
			continue
		}
		t[d.Code] = d
	}
	return t, nil
}
