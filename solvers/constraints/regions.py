KINDS = ()
