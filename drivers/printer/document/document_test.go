package document

import (
	"errors"
	"github.com/polaris-vlt/polaris/money"
	"strings"
	"testing"
	"time"
)

func sampleVoucher() Voucher {
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	return Voucher{Lang: Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Address: "Praha 1", Machine: "0017",
		Issued: at, Amount: 1234, Currency: CZK, Sequence: 42, Validation: "001234567890123456",
		Type: Cashable, Expiry: at.Add(30 * 24 * time.Hour)}
}

func TestVoucherCarriesEveryRequiredField(t *testing.T) {
	v := sampleVoucher()
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		FValidation: "001234567890123456", FValidationText: "00-1234-5678-9012-3456", FSite: "Herna U Hvězdy",
		FMachine: "0017", FDate: "29.11.2026", FTime: "18:07:05", FAmount: "1 234 CZK",
		FAmountWords: "tisíc dvě stě třicet čtyři koruny české", FSequence: "0042", FType: "HOTOVOSTNÍ",
		FExpiry: "29.12.2026 18:07",
	}
	for k, w := range want {
		if g, _ := FieldValue(v, k); g != w {
			t.Errorf("%s = %q, want %q", k, g, w)
		}
	}
	// Validation number at the leading edge (first block) and again elsewhere, plus a barcode.
	lay := v.Layout()
	if !strings.Contains(lay[0].Text, "00-1234-5678-9012-3456") {
		t.Errorf("leading edge block %q lacks the validation number", lay[0].Text)
	}
	n, bars := 0, 0
	for _, b := range lay {
		if strings.Contains(b.Text, "00-1234-5678-9012-3456") {
			n++
		}
		if b.Kind == BlockBarcode && b.Text == v.Validation {
			bars++
		}
	}
	if n < 2 || bars != 1 {
		t.Errorf("validation number printed %d times, barcode %d times", n, bars)
	}
}

func TestVoucherEnglishAndGermanFigures(t *testing.T) {
	v := sampleVoucher()
	v.Currency, v.Amount = EUR, 123456
	v.Lang = English
	if g, _ := FieldValue(v, FAmount); g != "EUR 1,234.56" {
		t.Errorf("en %q", g)
	}
	if g, _ := FieldValue(v, FDate); g != "2026-11-29" {
		t.Errorf("en date %q", g)
	}
	v.Lang = German
	if g, _ := FieldValue(v, FAmount); g != "1.234,56 EUR" {
		t.Errorf("de %q", g)
	}
	v.Duplicate = true
	if g, _ := FieldValue(v, FTitle); !strings.Contains(g, "DUPLIKAT") {
		t.Errorf("duplicate title %q", g)
	}
}

func TestVoucherRefusals(t *testing.T) {
	for name, mut := range map[string]func(*Voucher){
		"short validation": func(v *Voucher) { v.Validation = "12345" },
		"letters":          func(v *Voucher) { v.Validation = "00123456789012345A" },
		"zero amount":      func(v *Voucher) { v.Amount = 0 },
		"no site":          func(v *Voucher) { v.Site = " " },
		"control char":     func(v *Voucher) { v.Machine = "00\x1b7" },
		"expiry before":    func(v *Voucher) { v.Expiry = v.Issued },
		"language":         func(v *Voucher) { v.Lang = "pl" },
		"currency":         func(v *Voucher) { v.Currency = money.Currency{Code: "GBP", MinorUnits: 2} },
		"type":             func(v *Voucher) { v.Type = 9 },
		"no issue time":    func(v *Voucher) { v.Issued = time.Time{} },
		"site id too long": func(v *Voucher) { v.SiteID = strings.Repeat("x", 21) },
	} {
		v := sampleVoucher()
		mut(&v)
		if err := v.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestJackpotFormPayoutTermsFollowMS18(t *testing.T) {
	j := JackpotForm{Lang: Czech, Site: "Herna", SiteID: "CZ-1", Machine: "7", Won: time.Unix(0, 0),
		Amount: 50_000, Currency: CZK, JackpotID: "J-9", Sequence: 1}
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	if g, _ := FieldValue(j, FPayoutTerms); g != "Vyplácí provozovna do 7 dnů" {
		t.Errorf("50 000: %q", g)
	}
	j.Amount = 50_001
	if g, _ := FieldValue(j, FPayoutTerms); g != "Vyplácí sídlo provozovatele do 30 dnů" {
		t.Errorf("50 001: %q", g)
	}
	sigs := 0
	for _, b := range j.Layout() {
		if b.Kind == BlockSignature {
			sigs++
		}
	}
	if sigs != 8 {
		t.Errorf("%d signature fields, want 8 (winner 5, staff 3)", sigs)
	}
	j.Currency = EUR
	if err := j.Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("EUR jackpot accepted: %v", err)
	}
}

func TestHandpayReceipt(t *testing.T) {
	h := HandpayReceipt{Lang: German, Site: "Casino", SiteID: "AT-3", Machine: "12", Paid: time.Unix(0, 0).UTC(),
		Amount: 250000, Currency: EUR, Sequence: 3, Reason: HandpayCancelCredit, Attendant: "K-17"}
	if err := h.Validate(); err != nil {
		t.Fatal(err)
	}
	if g, _ := FieldValue(h, FAmountWords); g != "zweitausendfünfhundert Euro" {
		t.Errorf("words %q", g)
	}
	if h.ValidationNumber() != "" {
		t.Error("a handpay receipt must not carry a validation number")
	}
	h.Attendant = ""
	if err := h.Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("no attendant accepted: %v", err)
	}
}
