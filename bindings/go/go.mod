module bloom/bindings/go

go 1.19
