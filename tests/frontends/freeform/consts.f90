! constants of the tests: kinds, and thresholds from the model numbers
module consts
   implicit none
   integer, parameter :: wp = kind(1.d0)
   real(wp), parameter :: zero = 0.0_wp, one = 1.0_wp
   integer, parameter :: nmax = 40
   real(wp), parameter :: tbig = real(radix(0._wp), wp)**floor( &
       (maxexponent(0._wp) - digits(0._wp) + 1) * 0.5_wp)
   real(wp), parameter :: tsml = real(radix(0._wp), wp)**ceiling( &
       & (minexponent(0._wp) - 1) * 0.5_wp)
end module consts
