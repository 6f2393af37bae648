package centralpb

// Purposes of signed bodies: each body names what it is, so a signature over
// one kind of body can never be passed off as another.
const (
	PurposeOutcome = "polaris.outcome.v1"
	PurposeRisk    = "polaris.risk.v1"
)
