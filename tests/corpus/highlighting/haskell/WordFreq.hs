{-# LANGUAGE OverloadedStrings #-}
-- | Counts word frequencies in files given on the command line.
module Main (main, topWords) where

import qualified Data.Map.Strict as Map
import Data.Char (isAlpha, toLower)
import Data.List (sortBy)
import Data.Ord (comparing, Down (..))
import System.Environment (getArgs)
import System.Exit

{- A word is a run of letters; everything else separates words.
   Case is folded so "The" and "the" count once. -}
data Stats = Stats
  { totalWords :: !Int
  , frequencies :: Map.Map String Int
  } deriving (Show, Eq)

emptyStats :: Stats
emptyStats = Stats 0 Map.empty

tokenize :: String -> [String]
tokenize = words . map normalize
  where
    normalize c
      | isAlpha c = toLower c
      | otherwise = ' '

addWords :: Stats -> [String] -> Stats
addWords = foldl step
  where
    step (Stats n m) w = Stats (n + 1) (Map.insertWith (+) w 1 m)

topWords :: Int -> Stats -> [(String, Int)]
topWords n = take n . sortBy (comparing (Down . snd)) . Map.toList . frequencies

share :: Stats -> Int -> Double
share stats count
  | totalWords stats == 0 = 0.0
  | otherwise = fromIntegral count / fromIntegral (totalWords stats) * 100

main :: IO ()
main = do
  args <- getArgs
  case args of
    [] -> do
      putStrLn "usage: wordfreq FILE..."
      exitWith (ExitFailure 2)
    files -> do
      texts <- mapM readFile files
      let stats = addWords emptyStats (concatMap tokenize texts)
      mapM_ (\(w, c) -> putStrLn (w ++ "\t" ++ show c ++ " (" ++ show (share stats c) ++ "%)"))
            (topWords 10 stats)
      if totalWords stats > 1000 then putStrLn "large corpus" else return ()
      print ('x', 0x1F, 2.5e-3, [] :: [Int])
