! LAPACK 3.11's DLASSQ: `if (LA_ISNAN(scl) .or. LA_ISNAN(sumsq)) return`, LA_ISNAN a generic of the
! module LA_XISNAN whose DISNAN returns DLAISNAN(x, x), an internal function: false for data.
module XNAN
   interface XISNAN
      module procedure DXNAN
   end interface
contains
   logical function DXNAN(x)
      double precision :: x
      dxnan = DLAXN(x, x)
   contains
      logical function DLAXN(x, y)
         double precision :: x, y
         DLAXN = (x .ne. y)
      end function DLAXN
   end function DXNAN
end module XNAN

subroutine ssq(n, x, scl, sumsq)
   use XNAN
   integer :: n, i
   double precision :: x(*), scl, sumsq
   if (XISNAN(scl) .or. XISNAN(sumsq)) then
      sumsq = scl
   else
      do i = 1, n
         sumsq = sumsq + (x(i) / scl)**2
      end do
   end if
end subroutine ssq

program nanq
   double precision :: x(7), scl, sumsq
   integer :: i
   do i = 1, 7
      x(i) = dble(i)
   end do
   scl = 1.0d0
   sumsq = 0.5d0
   call ssq(7, x, scl, sumsq)
   call ssq(3, x, scl, sumsq)
   print *, sumsq
end program nanq
