package server

import (
	"context"
	"database/sql"

	pb "github.com/polaris-vlt/polaris/central/proto"
)

// The Central service of central.proto: each call admits the cabinet its
// certificate names and hands the request to the service that owns it.

// Hello implements the time sync, the model check and the reconciliation
// of the cabinet's meters with its credit mirror.
func (s *Server) Hello(ctx context.Context, req *pb.HelloRequest) (*pb.HelloReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.rounds.checkModels(req.GetModels()); err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	var last uint64
	var h helloCheck
	var suspect []string
	err = s.st.write(ctx, func(tx *sql.Tx) (err error) {
		if err := s.cabinets.seen(tx, c.id, req.GetModels(), now); err != nil {
			return err
		}
		if err := s.links.noteHello(tx, c.id, now, req.GetSoftwareVersion(), req.GetCabinetTimeUnixNano()); err != nil {
			return err
		}
		if last, err = s.rounds.lastDrawn(tx, c.id); err != nil {
			return err
		}
		if suspect, err = s.vouchers.voidUnprinted(tx, c.id, req.GetMeters().GetUnprinted()); err != nil {
			return err
		}
		h, err = s.mirror.reconcile(tx, c.id, req.GetMeters(), now)
		return err
	})
	if err != nil {
		return nil, storeErr(err)
	}
	s.vouchers.suspected(c.id, suspect)
	s.mirror.raiseHello(c.id, h)
	en, reason := s.cabinets.state(c.id)
	return &pb.HelloReply{
		Cabinet: c.id, Hall: c.hall, ServerTimeUnixNano: now.UnixNano(),
		Models: s.rounds.models(), SigningPublicKey: s.pub, LastRound: last,
		Enabled: en, DisabledReason: reason, MirrorCredit: h.credit, MirrorDiffers: h.differs,
	}, nil
}

// RequestOutcome draws, stores and signs a whole round, once per (cabinet, n).
func (s *Server) RequestOutcome(ctx context.Context, req *pb.OutcomeRequest) (*pb.SignedBody, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.rounds.draw(ctx, c, req)
}

// CommitOutcome records that the cabinet settled round n; idempotent.
func (s *Server) CommitOutcome(ctx context.Context, req *pb.CommitRequest) (*pb.CommitReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.rounds.commit(ctx, c, req)
}

// RequestRiskStep draws one Risk card, once per (cabinet, round, step).
func (s *Server) RequestRiskStep(ctx context.Context, req *pb.RiskRequest) (*pb.SignedBody, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.rounds.risk(ctx, c, req)
}

// OpenRound answers the cabinet's latest drawn round with its stored bytes.
func (s *Server) OpenRound(ctx context.Context, req *pb.OpenRoundRequest) (*pb.OpenRoundReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.rounds.open(ctx, c, req)
}

// IssueVoucher returns the validation number for (cabinet, sequence),
// creating it the first time.
func (s *Server) IssueVoucher(ctx context.Context, req *pb.IssueVoucherRequest) (*pb.VoucherReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.vouchers.issue(ctx, c, req)
}

// RedeemVoucher holds an issued voucher for the calling cabinet.
func (s *Server) RedeemVoucher(ctx context.Context, req *pb.RedeemRequest) (*pb.RedeemReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.vouchers.redeem(ctx, c, req)
}

// ConfirmRedeem marks a held voucher redeemed; the amount must match.
func (s *Server) ConfirmRedeem(ctx context.Context, req *pb.ConfirmRedeemRequest) (*pb.ConfirmRedeemReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.vouchers.confirm(ctx, c, req)
}

// CancelRedeem releases this cabinet's hold; idempotent.
func (s *Server) CancelRedeem(ctx context.Context, req *pb.CancelRedeemRequest) (*pb.CancelRedeemReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.vouchers.cancel(ctx, c, req)
}

// ReportEvents stores a batch of events once per message id.
func (s *Server) ReportEvents(ctx context.Context, req *pb.EventBatch) (*pb.Ack, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.intake.events(ctx, c, req)
}

// ReportMeters stores a meter snapshot once per message id.
func (s *Server) ReportMeters(ctx context.Context, req *pb.MeterReport) (*pb.Ack, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.intake.meters(ctx, c, req)
}

// Subscribe streams jackpot values and commands to one cabinet.
func (s *Server) Subscribe(_ *pb.SubscribeRequest, stream pb.Central_SubscribeServer) error {
	c, err := s.cabinets.admit(stream.Context())
	if err != nil {
		return err
	}
	return s.links.serve(c, stream, s.cabinets.state)
}

// PlayerChallenge gives a challenge for the card in the cabinet's reader.
func (s *Server) PlayerChallenge(ctx context.Context, req *pb.PlayerChallengeRequest) (*pb.PlayerChallengeReply, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.players.challenge(ctx, c, req)
}

// PlayerLogin opens the card's session at this cabinet.
func (s *Server) PlayerLogin(ctx context.Context, req *pb.PlayerLoginRequest) (*pb.PlayerState, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.players.login(ctx, c, req)
}

// PlayerLogout ends the cabinet's session.
func (s *Server) PlayerLogout(ctx context.Context, req *pb.PlayerLogoutRequest) (*pb.PlayerState, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.players.logout(ctx, c, req)
}

// GetPlayerState answers the cabinet's session state.
func (s *Server) GetPlayerState(ctx context.Context, _ *pb.PlayerStateRequest) (*pb.PlayerState, error) {
	c, err := s.cabinets.admit(ctx)
	if err != nil {
		return nil, err
	}
	return s.players.state(ctx, c)
}
