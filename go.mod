module github.com/loopbreaker/loopbreaker

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	golang.org/x/net v0.62.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/text v0.43.0 // indirect
)
