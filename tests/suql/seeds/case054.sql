COPY restaurants TO '/tmp/x'
