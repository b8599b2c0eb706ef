//go:build amd64 && !purego

package store

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveBMI says whether headFirstBMI may run: the processor has BMI1 and BMI2 (TZCNT,
// ANDN, BZHI, SHRX). Tests turn it off to hold HeadGroup's Go loop to the same
// references.
var haveBMI = cpu.X86.HasBMI1 && cpu.X86.HasBMI2

// The offsets headfirst_amd64.s reads (a build error here when they move).
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.j0)-96]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.wo)-128]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.done)-136]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.lanes)-176]
var _ = [1]struct{}{}[unsafe.Offsetof(headLanes{}.start)-256]

// headFirstBMI is HeadGroup's loops in assembly (store/headfirst_amd64.s) for the lists
// read without a call; headGroupBMI takes the others.
//
//go:noescape
func headFirstBMI(a *headArgs)
