//go:build !amd64 || purego

package store

// haveBMI says whether headFirstBMI may run: never here.
var haveBMI = false

// headFirstBMI is never called without haveBMI.
func headFirstBMI(a *headArgs) { panic("store: headFirstBMI without BMI1 and BMI2") }

// headVec says whether headFirstBMI reads short lists 8 at a time: never here.
var headVec = false
