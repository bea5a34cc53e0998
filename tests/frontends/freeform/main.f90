! A free-form program for sad's tests: a module's constants USEd (renamed), kind parameters and suffixes,
! ';' and '&' continuation, a DO WHILE, and a sum of squares in three accumulators by magnitude (BLAS's
! DNRM2 does so since LAPACK 3.10), whose tests on data fall to the generic-data model. Written here.
program main
   use consts, only: wp, nmax, unit => one
   implicit none
   real(wp) :: x(nmax), s
   real(wp), external :: sumsq
   integer :: i, n, k, m
   n = 30; k = 0; m = 0
   do i = 1, n
      x(i) = unit / i   ! one over i
   end do
   s = sumsq(n, x)
   do i = 1, n, 2
      k = k + i / 2
   end do
   i = 0
   do while (i < n)
      i = i + 3
      m = m + &
          i
   end do
   print *, s, k, m, '!;&'
end program main

real(kind(1.d0)) function sumsq(n, x)
   use consts
   integer, intent(in) :: n
   real(wp), intent(in) :: x(*)
   integer :: i
   real(wp) :: ax, big, med, sml
   big = zero; med = zero; sml = zero
   do i = 1, n
      ax = abs(x(i))
      if (ax > tbig) then
         big = big + ax**2
      else if (ax < tsml) then
         sml = sml + ax**2
      else
         med = med + ax**2
      end if
   end do
   if (big > zero) then
      sumsq = big
   else if (sml > zero) then
      sumsq = sml
   else
      sumsq = med
   end if
end function sumsq
