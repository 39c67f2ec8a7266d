package window
