query: SELECT nme FROM places
error: unknown column 'nme'
