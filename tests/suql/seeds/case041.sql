select name -- the name
  from restaurants /* all of them */
 where rating>4 order by rating desc limit 3
