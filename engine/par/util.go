package par

import "math/big"

func ratF(r *big.Rat) float64 { f, _ := r.Float64(); return f }
