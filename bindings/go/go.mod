module example.invalid/bloom/bindings/go

go 1.19
