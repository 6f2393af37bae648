package link

import (
	"context"

	pb "github.com/polaris-vlt/polaris/central/proto"
)

// PlayerState is the central system's player session at this cabinet: the
// limits with what is left, the break (central/PROTOCOL.md "Players").
type PlayerState = pb.PlayerState

// PlayerLogin logs the card in: it asks the central system for a
// challenge, has the card answer it (respond: the reader's
// challenge-response with the card), and opens the session. Refusals
// (*RefusedError) carry CARD_UNKNOWN, CARD_BLOCKED, CARD_AUTH_FAILED,
// PLAYER_BLOCKED, PLAYER_EXCLUDED, PLAYER_LIMITS_UNDECIDED, EXCLUSIONS_STALE.
func (c *Client) PlayerLogin(ctx context.Context, card string, respond func(challenge []byte) ([]byte, error)) (*PlayerState, error) {
	var ch *pb.PlayerChallengeReply
	err := c.call(ctx, "player challenge", func(ctx context.Context) (err error) {
		ch, err = c.api().PlayerChallenge(ctx, &pb.PlayerChallengeRequest{CardId: card})
		return err
	})
	if err != nil {
		return nil, err
	}
	resp, err := respond(ch.GetChallenge())
	if err != nil {
		return nil, err
	}
	var st *pb.PlayerState
	err = c.call(ctx, "player login", func(ctx context.Context) (err error) {
		st, err = c.api().PlayerLogin(ctx, &pb.PlayerLoginRequest{CardId: card, Challenge: ch.GetChallenge(), Response: resp})
		return err
	})
	return st, err
}

// PlayerLogout ends the session at this cabinet (card out); idempotent.
func (c *Client) PlayerLogout(ctx context.Context, reason string) (*PlayerState, error) {
	var st *pb.PlayerState
	err := c.call(ctx, "player logout", func(ctx context.Context) (err error) {
		st, err = c.api().PlayerLogout(ctx, &pb.PlayerLogoutRequest{Reason: reason})
		return err
	})
	return st, err
}

// PlayerState asks for the session state; it also keeps the session alive
// (ask at least every minute while a player is in).
func (c *Client) PlayerState(ctx context.Context) (*PlayerState, error) {
	var st *pb.PlayerState
	err := c.call(ctx, "player state", func(ctx context.Context) (err error) {
		st, err = c.api().GetPlayerState(ctx, &pb.PlayerStateRequest{})
		return err
	})
	return st, err
}
