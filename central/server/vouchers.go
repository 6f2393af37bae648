package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/reports"
)

// vouchers issues the cabinets' vouchers against their credit mirror and
// redeems them: issue once per (cabinet, sequence), hold at one cabinet
// at a time, confirm or cancel the hold. A voucher's state changes only
// here (and in VoidVoucherTx, the back office's void).
type vouchers struct {
	base
	cabinets *Cabinets
	mirror   *Mirror
	alarms   *Alarms
}

// MaxVoucher bounds a voucher's amount (minor units) against garbage input.
const MaxVoucher = 1_000_000_000_00

// NewValidationNumber returns an 18-digit validation number: a type digit
// (0 = cashable), 16 random digits, and a Luhn check digit, so that no
// number can be guessed from another and a misread is caught.
func NewValidationNumber() (string, error) {
	lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil)
	v, err := rand.Int(rand.Reader, lim)
	if err != nil {
		return "", err
	}
	s := "0" + leftPad(v.String(), 16)
	return s + string(rune('0'+luhnDigit(s))), nil
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// luhnDigit is the check digit that makes s+digit pass the Luhn test.
func luhnDigit(s string) int {
	sum := 0
	for i := len(s) - 1; i >= 0; i-- {
		d := int(s[i] - '0')
		if (len(s)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// ValidNumber reports whether s has the form of a validation number.
func ValidNumber(s string) bool {
	if len(s) != 18 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return luhnDigit(s[:17]) == int(s[17]-'0')
}

func voucherReply(number string, amount int64, seq uint64, issued, expires int64) *pb.VoucherReply {
	return &pb.VoucherReply{ValidationNumber: number, Amount: amount, Sequence: seq, IssuedAtUnixNano: issued, ExpiresAtUnixNano: expires}
}

// issue returns the validation number for (cabinet, sequence),
// creating it the first time.
func (s *vouchers) issue(ctx context.Context, c *cabinet, req *pb.IssueVoucherRequest) (*pb.VoucherReply, error) {
	amount, seq := req.GetAmount(), req.GetSequence()
	if amount <= 0 || amount > MaxVoucher {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "voucher amount %d out of range", amount)
	}
	if seq == 0 || seq > 1<<62 {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "voucher sequence %d out of range", seq)
	}
	var out *pb.VoucherReply
	var suspect []string
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockCabinet(tx, c.id); err != nil {
			return err
		}
		suspect = nil
		var number string
		var amt, issued, expires int64
		err := tx.QueryRow(`SELECT number, amount, issued_at, expires_at FROM vouchers WHERE cabinet=? AND sequence=?`, c.id, int64(seq)).
			Scan(&number, &amt, &issued, &expires)
		if err == nil {
			if amt != amount {
				return refuse(codes.AlreadyExists, refusal.VoucherConflict, "voucher sequence %d was issued for %d, not %d", seq, amt, amount)
			}
			out = voucherReply(number, amt, seq, issued, expires)
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if en, reason := s.cabinets.state(c.id); !en {
			return refuse(codes.FailedPrecondition, refusal.DisabledVoucher, "cabinet %s is disabled (%s): no voucher issued", c.id, reason)
		}
		// Never more than the central system knows the cabinet holds.
		if suspect, err = s.voidUnprinted(tx, c.id, req.GetMeters().GetUnprinted()); err != nil {
			return err
		}
		m, err := s.mirror.load(tx, c.id)
		if err != nil {
			return err
		}
		if err := s.mirror.report(tx, c.id, m, req.GetMeters()); err != nil {
			return err
		}
		if !m.reported {
			return refuse(codes.FailedPrecondition, refusal.CreditUnknown, "cabinet %s reports no credit meters: no voucher", c.id)
		}
		if credit := m.credit(); amount > credit {
			// A ticket the cabinet credited has its ConfirmRedeem on the
			// way (sent after the credit): with this cabinet's holds the
			// voucher would be covered, so the answer is "try again"
			// (UNAVAILABLE, retried by the client), not a refusal. The
			// holds themselves never count: a hold is not money in.
			var held int64
			if err := tx.QueryRow(`SELECT COALESCE(SUM(amount), 0) FROM vouchers WHERE hold_cabinet=? AND state='held'`, c.id).Scan(&held); err != nil {
				return err
			}
			if held > 0 && amount <= credit+held {
				return refuse(codes.Unavailable, refusal.ConfirmPending, "voucher of %d waits for the confirmation of %d in tickets held (mirrored credit %d)", amount, held, credit)
			}
			return refuse(codes.FailedPrecondition, refusal.VoucherAboveCredit, "voucher of %d above the mirrored credit %d (%s)", amount, credit, describeMirror(m))
		}
		if err := s.mirror.book(tx, c.id, 0, 0, 0, amount); err != nil {
			return err
		}
		now := s.now()
		issued, expires = now.UnixNano(), now.Add(s.cfg.VoucherValidity).UnixNano()
		for try := 0; ; try++ {
			if number, err = NewValidationNumber(); err != nil {
				return err
			}
			res, err := tx.Exec(`INSERT INTO vouchers(number, cabinet, sequence, amount, issued_at, expires_at, state)
				VALUES(?,?,?,?,?,?,'issued') ON CONFLICT(number) DO NOTHING`, number, c.id, int64(seq), amount, issued, expires)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				break
			}
			if try > 8 {
				return errors.New("no free validation number")
			}
		}
		out = voucherReply(number, amount, seq, issued, expires)
		return nil
	})
	s.suspected(c.id, suspect)
	if err != nil {
		return nil, s.alarms.raised(c.id, storeErr(err))
	}
	return out, nil
}

type voucherRow struct {
	amount, expires, holdUntil int64
	state, hold, holdCabinet   string
}

func loadVoucher(tx *sql.Tx, number string) (*voucherRow, error) {
	var v voucherRow
	err := tx.QueryRow(`SELECT amount, expires_at, state, hold, hold_cabinet, hold_until FROM vouchers WHERE number=?`, number).
		Scan(&v.amount, &v.expires, &v.state, &v.hold, &v.holdCabinet, &v.holdUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, refuse(codes.NotFound, refusal.VoucherUnknown, "voucher %s is not on file", number)
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func checkNumber(number string) error {
	if !ValidNumber(number) {
		return refuse(codes.InvalidArgument, refusal.VoucherInvalid, "%q is not a validation number", number)
	}
	return nil
}

// redeem holds an issued voucher for the calling cabinet. Asking
// again from the same cabinet returns the same hold.
func (s *vouchers) redeem(ctx context.Context, c *cabinet, req *pb.RedeemRequest) (*pb.RedeemReply, error) {
	number := req.GetValidationNumber()
	if err := checkNumber(number); err != nil {
		return nil, err
	}
	var out *pb.RedeemReply
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockVoucher(tx, number); err != nil {
			return err
		}
		v, err := loadVoucher(tx, number)
		if err != nil {
			return err
		}
		now := s.now()
		switch {
		case v.state == "void":
			return refuse(codes.FailedPrecondition, refusal.VoucherVoid, "voucher %s was reported never printed by the cabinet that issued it", number)
		case v.state == "redeemed":
			return refuse(codes.FailedPrecondition, refusal.VoucherRedeemed, "voucher %s is already redeemed", number)
		case now.UnixNano() >= v.expires:
			return refuse(codes.FailedPrecondition, refusal.VoucherExpired, "voucher %s expired", number)
		case v.state == "held" && v.holdCabinet == c.id:
			out = &pb.RedeemReply{ValidationNumber: number, Amount: v.amount, Hold: v.hold, HoldExpiresAtUnixNano: v.holdUntil}
			return nil
		case v.state == "held" && now.UnixNano() < v.holdUntil:
			return refuse(codes.FailedPrecondition, refusal.VoucherHeld, "voucher %s is being redeemed at another cabinet", number)
		}
		if en, reason := s.cabinets.state(c.id); !en {
			return refuse(codes.FailedPrecondition, refusal.DisabledVoucher, "cabinet %s is disabled (%s): no voucher redeemed", c.id, reason)
		}
		var hb [12]byte
		if _, err := rand.Read(hb[:]); err != nil {
			return err
		}
		hold, until := hex.EncodeToString(hb[:]), now.Add(s.cfg.HoldTimeout).UnixNano()
		if _, err := tx.Exec(`UPDATE vouchers SET state='held', hold=?, hold_cabinet=?, hold_until=? WHERE number=?`, hold, c.id, until, number); err != nil {
			return err
		}
		out = &pb.RedeemReply{ValidationNumber: number, Amount: v.amount, Hold: hold, HoldExpiresAtUnixNano: until}
		return nil
	})
	if err != nil {
		return nil, s.alarms.raised(c.id, storeErr(err))
	}
	return out, nil
}

// confirm marks a held voucher redeemed; the amount must match.
func (s *vouchers) confirm(ctx context.Context, c *cabinet, req *pb.ConfirmRedeemRequest) (*pb.ConfirmRedeemReply, error) {
	number := req.GetValidationNumber()
	if err := checkNumber(number); err != nil {
		return nil, err
	}
	var already bool
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockVoucher(tx, number); err != nil {
			return err
		}
		v, err := loadVoucher(tx, number)
		if err != nil {
			return err
		}
		if v.hold != req.GetHold() || v.holdCabinet != c.id {
			if v.state == "redeemed" {
				return refuse(codes.FailedPrecondition, refusal.VoucherRedeemed, "voucher %s is already redeemed", number)
			}
			return refuse(codes.FailedPrecondition, refusal.VoucherHold, "voucher %s is not held by this cabinet under hold %q", number, req.GetHold())
		}
		if v.amount != req.GetAmount() {
			return refuse(codes.FailedPrecondition, refusal.VoucherAmount, "voucher %s is for %d, not %d", number, v.amount, req.GetAmount())
		}
		switch v.state {
		case "redeemed":
			already = true
			return nil
		case "held":
			// A hold is the promise until hold_until; past it, a voucher
			// that has expired meanwhile is not redeemed.
			if now := s.now().UnixNano(); now >= v.holdUntil && now >= v.expires {
				return refuse(codes.FailedPrecondition, refusal.VoucherExpired, "voucher %s expired and its hold lapsed", number)
			}
			if _, err := tx.Exec(`UPDATE vouchers SET state='redeemed', redeemed_at=? WHERE number=?`, s.now().UnixNano(), number); err != nil {
				return err
			}
			return s.mirror.book(tx, c.id, 0, 0, v.amount, 0) // the ticket's money is now the cabinet's credit
		}
		return refuse(codes.FailedPrecondition, refusal.VoucherHold, "voucher %s has no hold (state %s)", number, v.state)
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return &pb.ConfirmRedeemReply{Already: already}, nil
}

// cancel releases this cabinet's hold; idempotent.
func (s *vouchers) cancel(ctx context.Context, c *cabinet, req *pb.CancelRedeemRequest) (*pb.CancelRedeemReply, error) {
	number := req.GetValidationNumber()
	if err := checkNumber(number); err != nil {
		return nil, err
	}
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockVoucher(tx, number); err != nil {
			return err
		}
		v, err := loadVoucher(tx, number)
		if err != nil {
			return err
		}
		if v.hold != req.GetHold() || v.holdCabinet != c.id {
			return refuse(codes.FailedPrecondition, refusal.VoucherHold, "voucher %s is not held by this cabinet under hold %q", number, req.GetHold())
		}
		switch v.state {
		case "issued":
			return nil
		case "redeemed":
			return refuse(codes.FailedPrecondition, refusal.VoucherRedeemed, "voucher %s is already redeemed", number)
		}
		_, err = tx.Exec(`UPDATE vouchers SET state='issued', hold_until=0 WHERE number=?`, number)
		return err
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return &pb.CancelRedeemReply{}, nil
}

// ErrVoucherNotVoidable: only an issued voucher (not held at a cabinet,
// redeemed or void already) can be voided.
var ErrVoucherNotVoidable = errors.New("server: voucher is not outstanding")

// VoidVoucherTx voids an issued voucher inside tx (Server.Write): the
// cabinet that presents it is then refused (VOUCHER_VOID).
func VoidVoucherTx(tx *sql.Tx, number string) error {
	var state string
	if err := tx.QueryRow(`SELECT state FROM vouchers WHERE number = ?`, number).Scan(&state); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return reports.ErrNoVoucher
		}
		return err
	}
	if state != "issued" {
		return fmt.Errorf("%w (it is %s)", ErrVoucherNotVoidable, state)
	}
	_, err := tx.Exec(`UPDATE vouchers SET state = 'void' WHERE number = ? AND state = 'issued'`, number)
	return err
}

// UnprintedVoidWindow is how long after issue a voucher the cabinet says
// it never printed is voided. Later, or once held or redeemed, it stays
// (the mirror then stays lower: a voucher is refused, never overpaid).
const UnprintedVoidWindow = 15 * time.Minute

// voidUnprinted voids the cabinet's vouchers it reports as never printed
// and gives their amounts back to the mirror; a report of one that was
// held or redeemed is returned as suspect (an alarm after the write).
func (s *vouchers) voidUnprinted(tx *sql.Tx, cab string, seqs []uint64) (suspect []string, err error) {
	if len(seqs) > 16 {
		seqs = seqs[len(seqs)-16:]
	}
	since := s.now().Add(-UnprintedVoidWindow).UnixNano()
	for _, q := range seqs {
		var number, state string
		var amount, issued int64
		err := tx.QueryRow(`SELECT number, state, amount, issued_at FROM vouchers WHERE cabinet=? AND sequence=?`, cab, int64(q)).
			Scan(&number, &state, &amount, &issued)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		switch {
		case state == "void":
		case state == "issued" && issued >= since:
			if _, err := tx.Exec(`UPDATE vouchers SET state='void' WHERE number=?`, number); err != nil {
				return nil, err
			}
			if err := s.mirror.book(tx, cab, 0, 0, 0, -amount); err != nil {
				return nil, err
			}
		case state != "issued":
			suspect = append(suspect, fmt.Sprintf("voucher sequence %d reported unprinted but %s", q, state))
		}
	}
	return suspect, nil
}

// suspected raises the alarms of the vouchers voidUnprinted found held or
// redeemed, once the transaction that found them ended.
func (s *vouchers) suspected(cab string, suspect []string) {
	for _, t := range suspect {
		s.alarms.raise(cab, ReasonUnprintedSuspect, t)
	}
}
