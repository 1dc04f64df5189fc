package contextmgr

// Estimator turns bytes into estimated tokens. Until calibrated it assumes
// 4 bytes per token (a fair average for English and code with BPE
// tokenizers); Measure takes the ratio of a request the server counted,
// Calibrate leans towards a rougher count. The zero value is ready to
// use. Not safe for concurrent use.
type Estimator struct {
	bytesPerToken float64
}

// DefaultBytesPerToken is the uncalibrated ratio.
const DefaultBytesPerToken = 4.0

// Measure records that the server counted a whole request of bytes bytes
// as tokens prompt tokens (its usage report): later estimates use exactly
// that ratio, so the estimate of the same request again is the server's
// count and the next one differs only by its new bytes. Requests of one
// conversation share their prefix, so the last count is the best guide to
// the next; averaging it with older ones would weigh the prefix twice.
// Non-positive inputs are ignored.
func (e *Estimator) Measure(bytes, tokens int) {
	if bytes <= 0 || tokens <= 0 {
		return
	}
	e.bytesPerToken = clampRatio(float64(bytes) / float64(tokens))
}

// Calibrate records a rougher count: bytes that were reportedTokens
// tokens by a bound or a guess (an overflow error's count, the window
// when the error named none). Later estimates use a running average (new
// reports weigh 1/2), so one odd figure cannot swing it far. Non-positive
// inputs are ignored.
func (e *Estimator) Calibrate(bytes, reportedTokens int) {
	if bytes <= 0 || reportedTokens <= 0 {
		return
	}
	r := clampRatio(float64(bytes) / float64(reportedTokens))
	if e.bytesPerToken == 0 {
		e.bytesPerToken = r
		return
	}
	e.bytesPerToken = (e.bytesPerToken + r) / 2
}

// clampRatio keeps a measured ratio within what tokenizers produce; one
// outside it comes only from garbage or a miscount.
func clampRatio(r float64) float64 { return min(max(r, 1), 16) }

// BytesPerToken returns the ratio in use.
func (e *Estimator) BytesPerToken() float64 {
	if e.bytesPerToken == 0 {
		return DefaultBytesPerToken
	}
	return e.bytesPerToken
}

// Tokens estimates the tokens of bytes bytes, rounding up.
func (e *Estimator) Tokens(bytes int) int {
	if bytes <= 0 {
		return 0
	}
	r := e.BytesPerToken()
	t := int(float64(bytes) / r)
	if float64(t)*r < float64(bytes) {
		t++
	}
	return t
}

// Bytes converts a token count (a window size) to estimated bytes.
func (e *Estimator) Bytes(tokens int) int {
	return int(float64(tokens) * e.BytesPerToken())
}
