package engine

// GameID names a game: "wishstar" (Wish Upon a Star), "magicstars" (Magic Stars).
type GameID string

const (
	WishStar   GameID = "wishstar"
	MagicStars GameID = "magicstars"
)

// Game is one game's rules and math model.
type Game interface {
	ID() GameID
	// ModelID is the SHA-256 (hex) of the model's data files; both sides of
	// a round must play the same one.
	ModelID() string
	// Stakes is the stake ladder in minor units, ascending.
	Stakes() []Money
	// Play plays one whole paid round at stake: the base spin and every
	// feature it leads to. It resets r and reuses its storage, so a
	// simulation allocates nothing per round. A stake off the ladder is a
	// *StakeError and draws nothing.
	Play(src Source, stake Money, r *Round) error
}

// Symbol is a game's symbol code; each game names its own symbols.
type Symbol uint8

// Screen is the visible window, [reel][row], rows top to bottom. Magic
// Stars uses reels 0..2; a star-carrying Magic Stars cell is marked in
// Step.Marked.
type Screen [5][3]Symbol

// StepKind says what kind of spin or event a step is.
type StepKind uint8

const (
	StepBase     StepKind = iota // the paid spin
	StepFree                     // a free spin
	StepLockSpin                 // a Lock & Spin respin (WS-8)
	StepBonusWin                 // a wild-reel bonus win reveal (WS-4)
)

// WinKind says what a win is for.
type WinKind uint8

const (
	WinWays    WinKind = iota // ways pay (WS-1)
	WinLine                   // line pay (MS-8)
	WinScatter                // scatter pay (WS-5)
	WinInstant                // instant bonus win (WS-4)
	WinJackpot                // Mini/Minor/Major/Grand (WS-9, WS-10)
	WinStar                   // a Lock & Spin star's cash prize (WS-9)
)

// Jackpot tiers of Wish Upon a Star (WS-10).
type Jackpot uint8

const (
	NoJackpot Jackpot = iota
	Mini
	Minor
	Major
	Grand
)

// Win is one award of a step.
type Win struct {
	Kind    WinKind `json:"kind"`
	Symbol  Symbol  `json:"symbol"`
	Count   int     `json:"count,omitempty"`   // symbols in the combination
	Ways    int     `json:"ways,omitempty"`    // ways it pays on (WS)
	Line    int     `json:"line,omitempty"`    // 1-based line number (MS)
	Jackpot Jackpot `json:"jackpot,omitempty"` // tier of a jackpot win
	Cell    int     `json:"cell,omitempty"`    // reel*3+row of a star prize
	Amount  Money   `json:"amount"`            // after every multiplier
}

// Step is one screen of a round with what it paid and what it triggered.
type Step struct {
	Kind   StepKind `json:"kind"`
	Stops  [5]int32 `json:"stops"`
	Screen Screen   `json:"screen"`
	// Marked flags star-carrying cells (Magic Stars, MS-11), bit reel*3+row.
	Marked uint16 `json:"marked,omitempty"`
	Wins   []Win  `json:"wins"`
	// Multiplier applied to the step's pay-table wins (2 in WS free spins),
	// or on a Lock & Spin step to its star cash prizes (2 when the feature
	// started in a WS free spin; StarValues already include it).
	Multiplier int `json:"multiplier,omitempty"`
	// FullScreen is set when MS-15 doubled this step's wins.
	FullScreen bool `json:"fullScreen,omitempty"`
	// Pay is the step's total after multipliers.
	Pay Money `json:"pay"`
	// FreeSpinsWon is the free spins this step awarded; FreeSpinsLeft the
	// count left after it.
	FreeSpinsWon  int `json:"freeSpinsWon,omitempty"`
	FreeSpinsLeft int `json:"freeSpinsLeft,omitempty"`
	// CountDraw is the raw value of the free-spin count draw (MS-13): many
	// values map to one count, so the outcome records it and a changed
	// draw can never replay to the same claimed round.
	CountDraw int32 `json:"countDraw,omitempty"`
	// Lock & Spin (WS-8, WS-9): which cells hold a locked star (bit
	// reel*3+row), their prizes, and the respins left after this step.
	Locked      uint16      `json:"locked,omitempty"`
	StarValues  [15]Money   `json:"starValues,omitempty"`
	StarJackpot [15]Jackpot `json:"starJackpot,omitempty"`
	RespinsLeft int         `json:"respinsLeft,omitempty"`
	// Bonus win (WS-4): which reel's wilds it came from (1 or 3, 0-based).
	BonusReel int `json:"bonusReel,omitempty"`
	// Raw values of Wish Upon a Star draws that map many values to one
	// result, recorded so a changed draw never replays to the claimed round:
	// the bonus-win draw (WS-4), each locked star's prize draw by cell
	// (WS-9), and this respin's landing draw of each cell empty before it (WS-8).
	BonusDraw int32      `json:"bonusDraw,omitempty"`
	StarDraws [15]uint16 `json:"starDraws,omitempty"`
	LandDraws [15]uint16 `json:"landDraws,omitempty"`
}

// Round is a whole paid game: everything the cabinet shows and pays.
type Round struct {
	Game    GameID `json:"game"`
	ModelID string `json:"modelId"`
	Stake   Money  `json:"stake"`
	Steps   []Step `json:"steps"`
	// Total is what the round pays to the player, after the round cap.
	Total Money `json:"total"`
	// Capped is set when the round cap (MS-7) cut Total.
	Capped bool `json:"capped,omitempty"`
}

// Reset empties r for reuse, keeping its storage.
func (r *Round) Reset(g Game, stake Money) {
	r.Game, r.ModelID, r.Stake = g.ID(), g.ModelID(), stake
	r.Steps = r.Steps[:0]
	r.Total, r.Capped = 0, false
}

// ResetAs is Reset for a game that knows its own id and model id: no
// interface calls on the hot path of a simulation.
func (r *Round) ResetAs(id GameID, model string, stake Money) {
	r.Game, r.ModelID, r.Stake = id, model, stake
	r.Steps = r.Steps[:0]
	r.Total, r.Capped = 0, false
}

// NewStep appends an empty step of kind k, reusing storage, and returns it.
func (r *Round) NewStep(k StepKind) *Step {
	if len(r.Steps) < cap(r.Steps) {
		r.Steps = r.Steps[:len(r.Steps)+1]
		s := &r.Steps[len(r.Steps)-1]
		wins := s.Wins[:0]
		*s = Step{Kind: k, Wins: wins}
		return s
	}
	r.Steps = append(r.Steps, Step{Kind: k})
	return &r.Steps[len(r.Steps)-1]
}
